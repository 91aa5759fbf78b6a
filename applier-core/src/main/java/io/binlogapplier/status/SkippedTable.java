package io.binlogapplier.status;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.TransactionRef;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@code <state_schema>.skipped}: one row per source transaction an operator skipped with
 * {@code binlog-applier skip}, never deleted by the applier: what was skipped, where, when, and the
 * error that stopped the applier there (null when none was recorded).
 */
public final class SkippedTable {
    public static final String TABLE = "skipped";

    private final String qualified;

    public SkippedTable(String schema) {
        this.qualified = "`" + schema.replace("`", "``") + "`.`" + TABLE + "`";
    }

    public String qualified() {
        return qualified;
    }

    public void ensureTable(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + qualified + " ("
                + " id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,"
                + " stream VARCHAR(64) NOT NULL,"
                + " gtid VARCHAR(255) NOT NULL,"
                + " binlog_file VARCHAR(512) NOT NULL, binlog_offset BIGINT UNSIGNED NOT NULL,"
                + " end_file VARCHAR(512) NOT NULL, end_offset BIGINT UNSIGNED NOT NULL,"
                + " skipped_at DATETIME(6) NOT NULL,"
                + " error_code INT NULL, error_message TEXT NULL,"
                + " KEY (stream, skipped_at)"
                + ") ENGINE=InnoDB COMMENT='transactions skipped by binlog-applier skip (UTC times)'");
        }
    }

    /** Records one skipped transaction, in the caller's transaction. */
    public void record(Connection c, String stream, TransactionRef t, BinlogCoordinates end, LastError error)
        throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + qualified + " (stream, gtid, binlog_file,"
            + " binlog_offset, end_file, end_offset, skipped_at, error_code, error_message)"
            + " VALUES (?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(6), ?, ?)")) {
            ps.setString(1, stream);
            ps.setString(2, t.gtid());
            ps.setString(3, t.start().file());
            ps.setLong(4, t.start().offset());
            ps.setString(5, end.file());
            ps.setLong(6, end.offset());
            if (error == null) {
                ps.setNull(7, java.sql.Types.INTEGER);
                ps.setNull(8, java.sql.Types.VARCHAR);
            } else {
                ps.setInt(7, error.exitCode());
                ps.setString(8, error.message());
            }
            ps.executeUpdate();
        }
    }
}
