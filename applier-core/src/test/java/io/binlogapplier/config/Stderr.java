package io.binlogapplier.config;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/** What a piece of configuration loading logs (the log goes to stderr), with its result. */
record Stderr<T>(T result, String text) {
    static <T> Stderr<T> of(Supplier<T> action) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            T result = action.get();
            return new Stderr<>(result, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(saved);
        }
    }
}
