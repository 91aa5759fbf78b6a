package io.binlogapplier.harness;

import io.binlogapplier.ApplierException;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.pipeline.Applier;
import io.binlogapplier.pipeline.PipelineMetrics;

/** Builds applier configurations for a server pair and runs the applier in this JVM. */
public final class TestApplier {
    private TestApplier() {
    }

    /**
     * The YAML of a configuration pointing at {@code pair}; {@code extra} is appended (more sections).
     * The metrics endpoint is off (tests running at once must not compete for its port): replace
     * {@code "listen: off"} to have one.
     */
    public static String yaml(ServerPair pair, String name, String start, String mode, int workers, String extraApply) {
        return "name: " + name + "\n"
            + "source:\n"
            + "  host: 127.0.0.1\n"
            + "  port: " + pair.source.port() + "\n"
            + "  user: repl\n"
            + "  password: repl\n"
            + "  server_id: 4242\n"
            + "  start: \"" + start + "\"\n"
            + "  reconnect_attempts: 0\n"
            + "target:\n"
            + "  host: 127.0.0.1\n"
            + "  port: " + pair.target.port() + "\n"
            + "  user: root\n"
            + "  password: \"\"\n"
            + "metrics:\n"
            + "  listen: off\n"
            + "apply:\n"
            + "  mode: " + mode + "\n"
            + "  workers: " + workers + "\n"
            + (extraApply != null && extraApply.contains("method:") ? "" : "  method: sql\n")
            + (extraApply == null ? "" : extraApply);
    }

    /**
     * As {@link #yaml}, without an {@code apply.method} key: the default ({@code auto}). {@link #yaml}
     * pins {@code method: sql} unless {@code extraApply} names a method, so that the tests written when
     * sql was the default keep testing the sql path (binlog has tests of its own, parameterized by method).
     */
    public static String yamlWithDefaultMethod(ServerPair pair, String name, String start, String mode, int workers) {
        return yaml(pair, name, start, mode, workers, null).replace("  method: sql\n", "");
    }

    public static ApplierConfig config(ServerPair pair, String name, String start, String mode, int workers) {
        return new ConfigLoader().parse(yaml(pair, name, start, mode, workers, null), "test", name);
    }

    /** Runs until everything the source has written now is applied; throws the applier's failure. */
    public static Applier.Outcome runUntilCurrent(ApplierConfig config) {
        return runUntilCurrent(config, PipelineMetrics.NONE);
    }

    /** As {@link #runUntilCurrent(ApplierConfig)}, reporting to {@code metrics}. */
    public static Applier.Outcome runUntilCurrent(ApplierConfig config, PipelineMetrics metrics) {
        try {
            return new Applier(config, metrics, 30_000).run(new Applier.Until.Current());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Runs and returns the failure, or fails the test when it does not fail. */
    public static ApplierException runExpectingFailure(ApplierConfig config) {
        try {
            runUntilCurrent(config);
        } catch (ApplierException e) {
            return e;
        }
        throw new AssertionError("the applier was expected to fail");
    }

    /** The position saved on {@code target} for {@code stream}, as file:offset (null when none is saved). */
    public static String savedPosition(MariaDb target, String stream) {
        return target.queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
            + " binlog_applier.applier_position WHERE stream = '" + stream + "'");
    }

    /** The source's current binlog position as file:offset. */
    public static String currentPosition(MariaDb source) {
        try (var c = source.connect(); var s = c.createStatement(); var rs = s.executeQuery("SHOW MASTER STATUS")) {
            rs.next();
            return rs.getString(1) + ":" + rs.getLong(2);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
