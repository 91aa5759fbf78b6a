package io.binlogapplier.config;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;

import java.util.List;

/** Every problem found in a configuration file, each with its key path. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public ConfigException(String file, List<String> problems) {
        super("invalid configuration " + file + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }

    public ApplierException asApplierException() {
        return new ApplierException(ExitCode.CONFIG, getMessage(), this);
    }
}
