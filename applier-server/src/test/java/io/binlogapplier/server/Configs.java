package io.binlogapplier.server;

import io.binlogapplier.harness.ServerPair;
import io.binlogapplier.harness.TestApplier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes configuration files for CLI tests. */
final class Configs {
    private Configs() {
    }

    static Path write(String yaml) {
        try {
            Path f = Files.createTempFile("binlog-applier-", ".yml");
            Files.writeString(f, yaml, StandardCharsets.UTF_8);
            f.toFile().deleteOnExit();
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path forPair(ServerPair pair, String name, String start) {
        return write(TestApplier.yaml(pair, name, start, "conservative", 1, null));
    }
}
