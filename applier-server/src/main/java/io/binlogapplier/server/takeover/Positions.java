package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.position.MariadbGtidPosition;
import io.binlogapplier.position.SourcePosition;

/** Turns an operator's FILE:POS or GTID text into a position of the source's kind. */
final class Positions {
    private Positions() {
    }

    /**
     * @param text {@code mysql-bin.000042:1337}, a MariaDB GTID position ({@code 0-1-100,1-2-5}) or a MySQL
     *             GTID set ({@code uuid:1-100})
     * @throws ApplierException {@link ExitCode#USAGE} when it is neither, or a GTID of the other server kind;
     *                          {@link ExitCode#SOURCE_POSITION_UNAVAILABLE} when the file is gone from the source
     */
    static SourcePosition resolve(String text, SourceInspector source) {
        String t = text.trim();
        if (GtidGoal.looksLikeGtids(t)) {
            try {
                GtidGoal.parse(t);
            } catch (IllegalArgumentException e) {
                throw new ApplierException(ExitCode.USAGE, "'" + t + "' is not a valid GTID position or set ("
                    + e.getMessage() + ")");
            }
            boolean mariadb = MariadbGtidPosition.looksLikeMariadb(t);
            if (mariadb != source.mariadb()) {
                throw new ApplierException(ExitCode.USAGE, "'" + t + "' is a " + (mariadb ? "MariaDB" : "MySQL")
                    + " GTID position but the source is " + (source.mariadb() ? "MariaDB" : "MySQL")
                    + ": give a position of the source's kind");
            }
            return new SourcePosition(new BinlogCoordinates("", 4), t, SourcePosition.ResumeBy.GTID);
        }
        BinlogCoordinates at = BinlogCoordinates.parseOrNull(t);
        if (at == null) {
            throw new ApplierException(ExitCode.USAGE, "'" + t + "' is no position: give FILE:POS"
                + " (mysql-bin.000042:1337), a MariaDB GTID position (0-1-100) or a MySQL GTID set (uuid:1-100)");
        }
        source.requireFile(at);
        source.requireTransactionStart(at, "'" + t + "'", ExitCode.USAGE);
        return new SourcePosition(at, source.gtidPositionAt(at), SourcePosition.ResumeBy.FILE);
    }
}
