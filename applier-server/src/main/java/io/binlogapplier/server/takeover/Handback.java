package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.position.SourceIdentity;
import io.binlogapplier.position.StateStore;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * {@code handback}: with the applier stopped, the statements ({@link HandbackPlan}) that let the
 * target's native replication continue exactly at the applier's saved position; printed, and run
 * with {@code --execute}. The operator starts the replica ({@code START SLAVE}) after making sure
 * the applier stays stopped.
 */
public final class Handback {
    private Handback() {
    }

    /** @param by "file", "gtid" or null (as the replica was configured: {@code Using_Gtid}) */
    public static String run(ApplierConfig config, boolean execute, String by) {
        if (by != null && !by.equals("file") && !by.equals("gtid")) {
            throw new ApplierException(ExitCode.USAGE, "--by " + by + ": give 'file' or 'gtid'");
        }
        try (StoppedApplier t = StoppedApplier.take(config, "handback");
             SourceInspector source = SourceInspector.connect(config.source())) {
            Connection c = t.connection();
            StateStore.Saved saved = t.requireSaved("handback");
            if (saved.pending() != null) {
                throw new ApplierException(ExitCode.HANDBACK_PENDING, "handback refused: the transaction at "
                    + saved.pending().coordinates() + " (a DDL or non-transactional change) may be partly applied;"
                    + " run the applier until it has applied it (binlog-applier run --config F --until current),"
                    + " then hand back");
            }
            boolean mariadb = NativeReplica.mariadb(c);
            ReplicaStatus r = NativeReplica.requireReplicaOf(c, mariadb, source, config.source(), "handback");
            if (!mariadb && "gtid".equals(by)) {
                throw new ApplierException(ExitCode.USAGE, "--by gtid: a MySQL replica is handed back by file position"
                    + " only (the applier's writes carry the target's own GTIDs); leave --by out");
            }
            boolean byGtid = mariadb && (by == null ? r.byGtid() : by.equals("gtid"));
            if (!byGtid) { // a file position of another server would start the native replica elsewhere: 19
                SourceIdentity.requireSame(t.state().sourceServerId(c), source.variable("server_id"),
                    config.source().address(), saved.position());
            }
            List<String> statements = HandbackPlan.statements(mariadb, byGtid,
                !mariadb && NativeReplica.mysqlReplicaSyntax(c), saved.position());
            if (mariadb && HandbackPlan.setsGtidSlavePos(statements)) {
                List<String> others = NativeReplica.otherConnections(c);
                if (!others.isEmpty()) {
                    throw new ApplierException(ExitCode.REPLICA_MISMATCH, "handback refused: the target also replicates"
                        + " through connection(s) " + String.join(", ", others) + ", and gtid_slave_pos is one for all"
                        + " of them: setting it would move their positions too; hand back by hand (CHANGE MASTER TO"
                        + " MASTER_LOG_FILE, MASTER_LOG_POS for the default connection, and this source's domain in"
                        + " gtid_slave_pos)");
                }
            }
            StringBuilder out = new StringBuilder("-- applier '" + config.name() + "' stopped at " + saved.position()
                + "; native replication continues from there with:" + System.lineSeparator());
            for (String s : statements) {
                out.append(s).append(';').append(System.lineSeparator());
            }
            if (execute) {
                try (Statement s = c.createStatement()) {
                    for (String sql : statements) {
                        s.execute(sql);
                    }
                }
                out.append("-- executed on the target.");
                String putBack = putBackFlushSettings(config);
                if (putBack != null) {
                    out.append(System.lineSeparator()).append(putBack);
                }
            } else {
                out.append("-- printed only: run them on the target, or give --execute.");
            }
            String start = mariadb ? "START SLAVE" : "START REPLICA";
            out.append(System.lineSeparator()).append("-- next: make sure the applier stays stopped (systemctl disable"
                + " --now binlog-applier@").append(config.name()).append("), then run ").append(start)
                .append("; on the target.");
            return out.toString();
        } catch (SQLException e) {
            throw new ApplierException(ExitCode.TARGET_STATEMENT_FAILED, "handback: a statement failed on the target ("
                + e.getMessage() + "); the target user needs REPLICATION SLAVE ADMIN (MariaDB 10.5+; older: SUPER)"
                + " to change the replica", e);
        }
    }

    /**
     * An applier that crashed (or was killed) while it held the target's flush settings relaxed leaves
     * its saved originals behind for its next start to put back. After a handback no start comes (a run
     * beside native replication exits 33), so the native replica would run relaxed for good: they are
     * put back here, as a stop would have. Null when this applier held nothing.
     */
    static String putBackFlushSettings(ApplierConfig config) {
        java.util.concurrent.atomic.AtomicReference<String> done = new java.util.concurrent.atomic.AtomicReference<>();
        new io.binlogapplier.durability.Durability(config.durability(), config.target().stateSchema(), config.name(),
            () -> io.binlogapplier.target.TargetConnections.jdbc(config.target()),
            new io.binlogapplier.durability.Durability.Listener() {
                @Override
                public void relaxed(boolean relaxed) {
                    done.set("-- the target's flush settings, which an earlier run of this applier left relaxed,"
                        + " were put back as they were before it.");
                }

                @Override
                public void warning(String message) {
                    done.set("-- WARNING: " + message);
                }
            }).end();
        return done.get();
    }
}
