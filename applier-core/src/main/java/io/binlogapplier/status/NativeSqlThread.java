package io.binlogapplier.status;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.SourceConfig;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Refuses to start while the target's own (native) replication applies the same source: after a
 * {@code handback} and {@code START SLAVE}, or an {@code adopt} whose SQL thread was started again,
 * both would apply every transaction. A target user that may not read the replica status is not
 * refused (nothing is known then).
 */
public final class NativeSqlThread {
    private NativeSqlThread() {
    }

    /** @param sourceServerId the source's {@code server_id}, read once at start */
    public static void refuseIfApplyingOurSource(Connection target, String sourceServerId, SourceConfig config) {
        ApplierException e = applyingOurSource(target, sourceServerId, config);
        if (e != null) {
            throw e;
        }
    }

    /**
     * The failure to stop with when the target's native replication applies the source of {@code
     * sourceServerId} now (its SQL thread runs), else null: checked at start, and while the applier runs
     * (a {@code START SLAVE} behind its back: both would apply every transaction).
     */
    public static ApplierException applyingOurSource(Connection target, String sourceServerId, SourceConfig config) {
        ApplierException[] found = new ApplierException[1];
        eachReplicaOfOurSource(target, sourceServerId, config, rs -> {
            String sql = column(rs, "Slave_SQL_Running", "Replica_SQL_Running");
            if (sql != null && !sql.equalsIgnoreCase("No") && found[0] == null) {
                found[0] = new ApplierException(ExitCode.REPLICA_SQL_RUNNING, "the target's native replication applies"
                    + " the same source (" + column(rs, "Master_Host", "Source_Host") + ":"
                    + column(rs, "Master_Port", "Source_Port") + ", SQL thread running): both would apply every"
                    + " transaction; stop it (STOP SLAVE) and take over with 'binlog-applier adopt', or leave the"
                    + " target to it and do not run the applier");
            }
        });
        return found[0];
    }

    /**
     * Refuses to resume from {@code saved} when the target's native replication of the same source,
     * though stopped, has applied past it: after a {@code handback} and {@code START SLAVE}, native
     * replication moved on from the position the applier handed back; a run from the applier's own
     * saved position would apply those transactions again. {@code adopt} takes the native position.
     */
    public static void refuseIfNativeAppliedPast(Connection target, String sourceServerId, SourceConfig config,
                                                 io.binlogapplier.position.BinlogCoordinates saved) {
        if (saved == null || saved.file().isEmpty()) {
            return;
        }
        eachReplicaOfOurSource(target, sourceServerId, config, rs -> {
            io.binlogapplier.position.BinlogCoordinates applied = executed(rs);
            if (applied != null && applied.compareTo(saved) > 0) {
                throw new ApplierException(ExitCode.REPLICA_SQL_RUNNING, "the target's native replication of"
                    + " this source has applied up to " + applied + ", past the applier's saved position "
                    + saved + " (it ran after a handback): a run from there would apply those transactions"
                    + " again; take over with 'binlog-applier adopt', which starts where native replication"
                    + " stopped");
            }
        });
    }

    /**
     * Refuses a first run (no saved position) from {@code start} on a target whose native replication of
     * the same source, though stopped, applied up to another position: from a later start the
     * transactions in between would never be applied (a DBA who skipped {@code adopt}, with the default
     * {@code start: current}), from an earlier one they would be applied twice. {@code adopt} takes the
     * native position; a target that is no longer a replica drops its replica configuration first.
     */
    public static void refuseIfFreshStartMissesNative(Connection target, String sourceServerId, SourceConfig config,
                                                      io.binlogapplier.position.BinlogCoordinates start) {
        if (start == null || start.file().isEmpty()) {
            return;
        }
        eachReplicaOfOurSource(target, sourceServerId, config, rs -> {
            io.binlogapplier.position.BinlogCoordinates applied = executed(rs);
            if (applied != null && applied.compareTo(start) != 0) {
                throw new ApplierException(ExitCode.REPLICA_SQL_RUNNING, "the target is a native replica of this"
                    + " source that applied up to " + applied + ", and this first run would start at " + start
                    + " (source.start): the transactions in between would be " + (applied.compareTo(start) < 0
                    ? "skipped" : "applied twice") + "; take over with 'binlog-applier adopt', which starts where"
                    + " native replication stopped (or RESET SLAVE ALL on the target if it is no longer a replica)");
            }
        });
    }

    /** The source position a replica status row's SQL thread executed up to, or null when it has none. */
    private static io.binlogapplier.position.BinlogCoordinates executed(ResultSet rs) {
        String file = column(rs, "Relay_Master_Log_File", "Relay_Source_Log_File");
        String pos = column(rs, "Exec_Master_Log_Pos", "Exec_Source_Log_Pos");
        long offset;
        try {
            offset = pos == null ? -1 : Long.parseLong(pos.trim());
        } catch (NumberFormatException e) {
            return null;
        }
        if (file == null || file.isEmpty() || offset <= 0) {
            return null;
        }
        return new io.binlogapplier.position.BinlogCoordinates(file, offset);
    }

    private interface RowCheck {
        void accept(ResultSet rs) throws SQLException;
    }

    /**
     * Runs {@code check} on each replica status row that replicates our source. MySQL 8.4 knows only
     * SHOW REPLICA STATUS; MariaDB before 10.5 only SHOW SLAVE STATUS. A target user that may read
     * neither is not refused: nothing is known then.
     */
    private static void eachReplicaOfOurSource(Connection target, String sourceId, SourceConfig config,
                                               RowCheck check) {
        for (String statement : new String[] {"SHOW SLAVE STATUS", "SHOW REPLICA STATUS"}) {
            try (Statement s = target.createStatement(); ResultSet rs = s.executeQuery(statement)) {
                while (rs.next()) {
                    if (ofOurSource(rs, sourceId, config)) {
                        check.accept(rs);
                    }
                }
                return;
            } catch (SQLException e) {
                // unknown statement, or no privilege to read it: try the other
            }
        }
    }

    /** The replica status row {@code rs} replicates our source: its server_id, or its host and port. */
    private static boolean ofOurSource(ResultSet rs, String sourceId, SourceConfig config) {
        String id = column(rs, "Master_Server_Id", "Source_Server_Id");
        String host = column(rs, "Master_Host", "Source_Host");
        String port = column(rs, "Master_Port", "Source_Port");
        boolean sameId = id != null && !id.equals("0") && id.trim().equals(sourceId == null ? "" : sourceId.trim());
        return sameId || config.host().equalsIgnoreCase(host) && String.valueOf(config.port()).equals(port);
    }

    private static String column(ResultSet rs, String a, String b) {
        try {
            return rs.getString(a);
        } catch (SQLException e) {
            try {
                return rs.getString(b);
            } catch (SQLException e2) {
                return null;
            }
        }
    }
}
