package io.binlogapplier.status;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
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

    public static void refuseIfApplyingOurSource(Connection target, SourceInspector source, SourceConfig config) {
        String sourceId = source.variable("server_id");
        // MySQL 8.4 knows only SHOW REPLICA STATUS; MariaDB before 10.5 only SHOW SLAVE STATUS.
        for (String statement : new String[] {"SHOW SLAVE STATUS", "SHOW REPLICA STATUS"}) {
            if (check(target, statement, sourceId, config)) {
                return;
            }
        }
    }

    /** @return whether {@code statement} could be read (and nothing was refused) */
    private static boolean check(Connection target, String statement, String sourceId, SourceConfig config) {
        try (Statement s = target.createStatement(); ResultSet rs = s.executeQuery(statement)) {
            while (rs.next()) {
                String sql = column(rs, "Slave_SQL_Running", "Replica_SQL_Running");
                if (sql == null || sql.equalsIgnoreCase("No")) {
                    continue;
                }
                String id = column(rs, "Master_Server_Id", "Source_Server_Id");
                String host = column(rs, "Master_Host", "Source_Host");
                String port = column(rs, "Master_Port", "Source_Port");
                boolean sameId = id != null && !id.equals("0") && id.trim().equals(sourceId == null ? "" : sourceId.trim());
                boolean sameAddress = config.host().equalsIgnoreCase(host) && String.valueOf(config.port()).equals(port);
                if (sameId || sameAddress) {
                    throw new ApplierException(ExitCode.REPLICA_SQL_RUNNING, "the target's native replication applies"
                        + " the same source (" + host + ":" + port + ", SQL thread running): both would apply every"
                        + " transaction; stop it (STOP SLAVE) and take over with 'binlog-applier adopt', or leave the"
                        + " target to it and do not run the applier");
                }
            }
            return true;
        } catch (SQLException e) {
            return false; // unknown statement, or no privilege to read it: nothing known, nothing refused
        }
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
