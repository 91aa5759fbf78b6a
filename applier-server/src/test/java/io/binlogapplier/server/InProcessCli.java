package io.binlogapplier.server;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The command line run in the test's JVM ({@link Main#run}, without {@code System.exit}), with what
 * it prints captured. For commands that register no shutdown hook: check, status, and run failing on
 * its configuration.
 */
final class InProcessCli {
    private InProcessCli() {
    }

    record Output(int code, String text) {
        List<String> lines() {
            return text.lines().filter(l -> !l.isBlank()).toList();
        }

        /** The first line whose text starts with {@code prefix} (a check row by its name, a status row by its key). */
        String line(String prefix) {
            return text.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with '" + prefix + "' in:\n" + text));
        }
    }

    static synchronized Output main(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        int code;
        try {
            code = Main.run(args);
        } finally {
            capture.flush();
            System.setOut(out);
            System.setErr(err);
        }
        return new Output(code, buffer.toString(StandardCharsets.UTF_8));
    }
}
