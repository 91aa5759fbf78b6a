package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.pipeline.TargetErrors;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.server.check.TargetConnections;
import io.binlogapplier.status.RunTable;
import io.binlogapplier.status.SkippedTable;
import io.binlogapplier.status.StreamLock;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/**
 * A target connection holding the stream's lock, for a command that must not run beside the
 * applier ({@code set-position}, {@code skip}, {@code adopt}, {@code handback}): while it is open
 * no applier of this name can start (a starting one waits a few seconds, then exits 31), and it
 * cannot be opened while one runs. Closing releases the lock. One thread.
 */
public final class StoppedApplier implements AutoCloseable {
    private final Connection connection;
    private final StreamLock lock;
    private final StateStore state;
    private final RunTable runs;
    private final SkippedTable skipped;

    private StoppedApplier(Connection connection, StreamLock lock, StateStore state, RunTable runs,
                           SkippedTable skipped) {
        this.connection = connection;
        this.lock = lock;
        this.state = state;
        this.runs = runs;
        this.skipped = skipped;
    }

    /**
     * Connects to the target, creates the state tables if missing and takes the lock.
     *
     * @throws ApplierException {@link ExitCode#APPLIER_RUNNING} when the applier (or another command) holds it
     */
    public static StoppedApplier take(ApplierConfig config, String command) {
        String schema = config.target().stateSchema();
        Connection c = TargetConnections.open(config.target());
        try {
            StateStore state = new StateStore(schema, config.name());
            RunTable runs = new RunTable(schema, config.name());
            state.ensureTable(c);
            runs.ensureTable(c);
            StreamLock lock = new StreamLock(schema, config.name());
            if (!lock.acquire(c, 0)) {
                Long holder = lock.holder(c);
                String who = runs.process(c, lock.name()).filter(p -> holder != null && p.connectionId() == holder)
                    .map(p -> "the applier (pid " + p.pid() + " on " + p.host() + ")")
                    .orElse("target connection " + holder + " (another command, or an applier)");
                throw new ApplierException(ExitCode.APPLIER_RUNNING, command + " needs applier '" + config.name()
                    + "' stopped, but " + who + " holds its lock on the target: stop it (systemctl stop"
                    + " binlog-applier@" + config.name() + ") and run " + command + " again");
            }
            return new StoppedApplier(c, lock, state, runs, new SkippedTable(schema));
        } catch (SQLException e) {
            close(c);
            throw new ApplierException(ExitCode.STATE_INVALID, "cannot prepare the state tables in " + schema
                + " on the target (" + e.getMessage() + "): grant the target user CREATE, SELECT, INSERT, UPDATE,"
                + " DELETE on `" + schema + "`.*", e);
        } catch (RuntimeException e) {
            close(c);
            throw e;
        }
    }

    public Connection connection() {
        return connection;
    }

    public StateStore state() {
        return state;
    }

    public RunTable runs() {
        return runs;
    }

    public SkippedTable skipped() {
        return skipped;
    }

    /** The saved position; {@link ExitCode#NO_SAVED_POSITION} when there is none. */
    public StateStore.Saved requireSaved(String command) throws SQLException {
        Optional<StateStore.Saved> s = state.load(connection);
        if (s.isEmpty()) {
            throw new ApplierException(ExitCode.NO_SAVED_POSITION, "applier '" + state.stream() + "' has no saved"
                + " position in " + state.schema() + "." + StateStore.TABLE + " on the target, so " + command
                + " has nothing to work from: run it once, or give it one with set-position or adopt");
        }
        return s.get();
    }

    static ApplierException targetFailure(SQLException e) {
        return TargetErrors.connect(e);
    }

    @Override
    public void close() {
        try {
            lock.release(connection);
        } catch (SQLException ignored) {
            // closing the session frees it anyway
        }
        close(connection);
    }

    private static void close(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing left to do
        }
    }
}
