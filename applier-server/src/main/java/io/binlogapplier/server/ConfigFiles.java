package io.binlogapplier.server;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigException;
import io.binlogapplier.config.ConfigLoader;

import java.nio.file.Path;

/** Loads a configuration file for a command; an invalid one ends it with exit code 3, as for {@code run}. */
final class ConfigFiles {
    private ConfigFiles() {
    }

    static ApplierConfig load(Path file) {
        try {
            return new ConfigLoader().load(file);
        } catch (ConfigException e) {
            throw e.asApplierException();
        }
    }
}
