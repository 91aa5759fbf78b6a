package io.binlogapplier.server;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigException;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.server.logging.Logging;

import java.nio.file.Path;

/**
 * Loads a configuration file for a command and applies its {@code log:} section; an invalid one ends
 * the command with exit code 3.
 */
final class ConfigFiles {
    private ConfigFiles() {
    }

    static ApplierConfig load(Path file) {
        try {
            ApplierConfig config = new ConfigLoader().load(file);
            Logging.apply(config.log());
            return config;
        } catch (ConfigException e) {
            throw e.asApplierException();
        }
    }
}
