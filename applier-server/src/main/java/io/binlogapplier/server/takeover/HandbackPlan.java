package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.position.SourcePosition;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements that point a native replica at the applier's saved position. Pure.
 *
 * <p>MariaDB by GTID: {@code gtid_slave_pos} is set to the saved position and the replica uses
 * {@code MASTER_USE_GTID=slave_pos} (never {@code current_pos}: the applier's writes are in the
 * target's own binlog under the target's server_id, and {@code current_pos} would count them). By
 * file: {@code MASTER_LOG_FILE}/{@code MASTER_LOG_POS}, with {@code gtid_slave_pos} set as well
 * when the position has GTIDs, so that a later switch to GTID finds it right. MySQL: by file only
 * ({@code CHANGE REPLICATION SOURCE TO SOURCE_AUTO_POSITION=0, SOURCE_LOG_FILE, SOURCE_LOG_POS}):
 * the applier's writes carry the target's own GTIDs, so auto-positioning would ask the source for
 * what the applier already applied.
 */
public final class HandbackPlan {
    private HandbackPlan() {
    }

    /**
     * @param mariadb the target (the native replica) is MariaDB
     * @param byGtid MariaDB only: hand back by GTID
     * @param mysqlChangeSource MySQL 8.0.23+ syntax ({@code CHANGE REPLICATION SOURCE TO}, {@code STOP REPLICA})
     */
    public static List<String> statements(boolean mariadb, boolean byGtid, boolean mysqlChangeSource,
                                          SourcePosition saved) {
        List<String> out = new ArrayList<>();
        String file = saved.coordinates().file();
        if (mariadb) {
            out.add("STOP SLAVE");
            if (byGtid) {
                requireGtids(saved);
                out.add("SET GLOBAL gtid_slave_pos = '" + quote(saved.gtids()) + "'");
                out.add("CHANGE MASTER TO MASTER_USE_GTID = slave_pos");
            } else {
                requireFile(saved);
                // A MariaDB replica of a MySQL source keeps no GTID position of it (gtid_slave_pos takes MariaDB GTIDs).
                if (!saved.gtids().isBlank()
                    && io.binlogapplier.position.MariadbGtidPosition.looksLikeMariadb(saved.gtids())) {
                    out.add("SET GLOBAL gtid_slave_pos = '" + quote(saved.gtids()) + "'");
                }
                out.add("CHANGE MASTER TO MASTER_LOG_FILE = '" + quote(file) + "', MASTER_LOG_POS = "
                    + saved.coordinates().offset() + ", MASTER_USE_GTID = no");
            }
            return out;
        }
        requireFile(saved);
        if (mysqlChangeSource) {
            out.add("STOP REPLICA");
            out.add("CHANGE REPLICATION SOURCE TO SOURCE_AUTO_POSITION = 0, SOURCE_LOG_FILE = '" + quote(file)
                + "', SOURCE_LOG_POS = " + saved.coordinates().offset());
        } else {
            out.add("STOP SLAVE");
            out.add("CHANGE MASTER TO MASTER_AUTO_POSITION = 0, MASTER_LOG_FILE = '" + quote(file)
                + "', MASTER_LOG_POS = " + saved.coordinates().offset());
        }
        return out;
    }

    private static void requireFile(SourcePosition saved) {
        if (saved.coordinates().file().isEmpty()) {
            throw new ApplierException(ExitCode.NO_SAVED_POSITION, "the saved position " + saved + " has no binlog"
                + " file yet (the applier has not read from the source since it was set by GTID): run it once, or"
                + " hand back by GTID (--by gtid, MariaDB)");
        }
    }

    private static void requireGtids(SourcePosition saved) {
        if (saved.gtids().isBlank()) {
            throw new ApplierException(ExitCode.NO_SAVED_POSITION, "the saved position " + saved + " has no GTID"
                + " position: hand back by file position (--by file)");
        }
        if (!io.binlogapplier.position.MariadbGtidPosition.looksLikeMariadb(saved.gtids())) {
            throw new ApplierException(ExitCode.USAGE, "the saved position's GTIDs " + saved.gtids() + " are a MySQL"
                + " source's, which a MariaDB replica cannot follow by GTID: hand back by file position (--by file)");
        }
    }

    /** Whether the statements set {@code gtid_slave_pos}, which every replication connection of a MariaDB server shares. */
    public static boolean setsGtidSlavePos(List<String> statements) {
        return statements.stream().anyMatch(s -> s.startsWith("SET GLOBAL gtid_slave_pos"));
    }

    private static String quote(String s) {
        return s.replace("\\", "\\\\").replace("'", "''");
    }
}
