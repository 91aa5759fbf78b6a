package io.binlogapplier.position;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The applier's state table on the target, {@code <state_schema>.applier_position}: one row per
 * applier (its config name). The row is updated in the same target transaction as the data it
 * covers, so after any crash it names exactly where to resume.
 *
 * <p>The {@code pending_*} columns name a unit whose effects cannot share a transaction with the
 * row update (DDL, non-transactional tables). They are set and committed before such a unit runs
 * and cleared with the position after it; a restart that finds them set replays that one unit
 * idempotently.
 */
public final class StateStore {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(StateStore.class);
    public static final String TABLE = "applier_position";

    private final String schema;
    private final String stream;
    private final String qualified;

    public StateStore(String schema, String stream) {
        this.schema = schema;
        this.stream = stream;
        this.qualified = "`" + schema.replace("`", "``") + "`.`" + TABLE + "`";
    }

    /** What the target says about this applier. */
    public record Saved(SourcePosition position, SourcePosition pending, long appliedTransactions,
                        long sourceCommitMicros) {
    }

    public String schema() {
        return schema;
    }

    public String stream() {
        return stream;
    }

    /** Creates the schema and table if missing. */
    public void ensureTable(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS `" + schema.replace("`", "``") + "`");
            s.execute("CREATE TABLE IF NOT EXISTS " + qualified + " ("
                + " stream VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " binlog_file VARCHAR(512) NOT NULL,"
                + " binlog_offset BIGINT UNSIGNED NOT NULL,"
                + " gtid_set MEDIUMTEXT NOT NULL,"
                + " resume_by VARCHAR(8) NOT NULL,"
                + " source_commit_us BIGINT NOT NULL DEFAULT 0,"
                + " applied_transactions BIGINT UNSIGNED NOT NULL DEFAULT 0,"
                + " pending_file VARCHAR(512) NULL,"
                + " pending_offset BIGINT UNSIGNED NULL,"
                + " pending_gtid_set MEDIUMTEXT NULL,"
                + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),"
                + " " + SOURCE_SERVER_ID + " BIGINT UNSIGNED NULL"
                + ") ENGINE=InnoDB COMMENT='binlog-applier position: do not edit while the applier runs'");
        }
        addSourceServerId(c);
    }

    /**
     * The column naming the source server whose binlog the file position is in: its {@code server_id}, or
     * NULL (not known yet, or an operator set the position). A file and offset mean other transactions
     * on another server, so a start by file position refuses a source whose {@code server_id} differs.
     */
    static final String SOURCE_SERVER_ID = "source_server_id";

    /** Adds {@link #SOURCE_SERVER_ID} to a table an earlier version created (MySQL has no ADD COLUMN IF NOT EXISTS). */
    private void addSourceServerId(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM information_schema.COLUMNS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, TABLE);
            ps.setString(3, SOURCE_SERVER_ID);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next() && rs.getInt(1) > 0) {
                    return;
                }
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("ALTER TABLE " + qualified + " ADD COLUMN " + SOURCE_SERVER_ID + " BIGINT UNSIGNED NULL");
        } catch (SQLException e) {
            if (e.getErrorCode() == 1142) { // ER_TABLEACCESS_DENIED_ERROR: no ALTER; run on as before without it
                log.warn("cannot add column {} to {} ({}): the source's server_id is not kept with the position, so a"
                    + " failover behind the source's address goes unnoticed; grant the target user ALTER on `{}`.*",
                    SOURCE_SERVER_ID, qualified, e.getMessage(), schema);
            } else if (e.getErrorCode() != 1060) { // ER_DUP_FIELDNAME: another applier on this target added it first
                throw e;
            }
        }
    }

    /**
     * The {@code server_id} of the source whose binlog the saved file position is in, or null when unknown
     * (no row, NULL, or a table from before the column that no run has added it to yet).
     */
    public Long sourceServerId(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + SOURCE_SERVER_ID + " FROM " + qualified
            + " WHERE stream = ?")) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long id = rs.getLong(1);
                return rs.wasNull() ? null : id;
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1054) { // ER_BAD_FIELD_ERROR: not added yet
                return null;
            }
            throw e;
        }
    }

    /** Records the source whose binlog this applier's positions are from (autocommit, or the caller's transaction). */
    public void recordSourceServerId(Connection c, long serverId) throws SQLException {
        setSourceServerId(c, serverId);
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    /** Sets {@link #SOURCE_SERVER_ID} (null: unknown); nothing on a table without the column (see addSourceServerId). */
    private void setSourceServerId(Connection c, Long serverId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + qualified + " SET " + SOURCE_SERVER_ID + " = ?"
            + " WHERE stream = ?")) {
            if (serverId == null) {
                ps.setNull(1, java.sql.Types.BIGINT);
            } else {
                ps.setLong(1, serverId);
            }
            ps.setString(2, stream);
            ps.executeUpdate();
        } catch (SQLException e) {
            if (e.getErrorCode() != 1054) { // ER_BAD_FIELD_ERROR: a table without the column
                throw e;
            }
        }
    }

    public Optional<Saved> load(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT binlog_file, binlog_offset, gtid_set, resume_by,"
            + " applied_transactions, source_commit_us, pending_file, pending_offset, pending_gtid_set FROM "
            + qualified + " WHERE stream = ?")) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                SourcePosition.ResumeBy by;
                try {
                    by = SourcePosition.ResumeBy.valueOf(rs.getString(4).toUpperCase());
                } catch (IllegalArgumentException e) {
                    throw new ApplierException(ExitCode.STATE_INVALID, "state row '" + stream + "' in " + qualified
                        + " has resume_by='" + rs.getString(4) + "': set it to 'file' or 'gtid'");
                }
                SourcePosition position = new SourcePosition(new BinlogCoordinates(rs.getString(1), rs.getLong(2)),
                    rs.getString(3), by);
                SourcePosition pending = null;
                if (rs.getString(7) != null) {
                    pending = new SourcePosition(new BinlogCoordinates(rs.getString(7), rs.getLong(8)),
                        rs.getString(9) == null ? "" : rs.getString(9), by);
                }
                return Optional.of(new Saved(position, pending, rs.getLong(5), rs.getLong(6)));
            }
        }
    }

    /** Binds (stream, binlog_file, binlog_offset, gtid_set, resume_by). */
    private void bindRow(PreparedStatement ps, SourcePosition p) throws SQLException {
        ps.setString(1, stream);
        ps.setString(2, p.coordinates().file());
        ps.setLong(3, p.coordinates().offset());
        ps.setString(4, p.gtids());
        ps.setString(5, p.resumeBy().name().toLowerCase());
    }

    /** Writes the first position of a new applier (before anything is applied) and commits. */
    public void insertInitial(Connection c, SourcePosition p) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + qualified
            + " (stream, binlog_file, binlog_offset, gtid_set, resume_by) VALUES (?, ?, ?, ?, ?)")) {
            bindRow(ps, p);
            ps.executeUpdate();
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }

    /**
     * Sets the position an operator chose ({@code set-position}, {@code skip}, {@code adopt}),
     * creating the row when missing; clears pending and the source's {@code server_id} (the next run
     * records the one it reads from), keeps the counters. Runs in the caller's
     * transaction (autocommit or not); only while no applier of this stream runs.
     */
    public void replace(Connection c, SourcePosition p) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + qualified
            + " (stream, binlog_file, binlog_offset, gtid_set, resume_by) VALUES (?, ?, ?, ?, ?)"
            + " ON DUPLICATE KEY UPDATE binlog_file = VALUES(binlog_file), binlog_offset = VALUES(binlog_offset),"
            + " gtid_set = VALUES(gtid_set), resume_by = VALUES(resume_by), pending_file = NULL,"
            + " pending_offset = NULL, pending_gtid_set = NULL")) {
            bindRow(ps, p);
            ps.executeUpdate();
        }
        setSourceServerId(c, null);
    }

    /**
     * When a worker writes the row: {@code SYSDATE(6)}, the target's clock as it is. The column's own
     * {@code ON UPDATE CURRENT_TIMESTAMP} would take the session's statement time, which a BINLOG
     * statement or {@code SET timestamp} leaves at the source's time of the last event applied.
     */
    private static final String WRITTEN_NOW = "updated_at = SYSDATE(6)";

    /** SQL that advances the position; parameters in {@link #bindAdvance} order. Clears pending. */
    public String advanceSql() {
        return "UPDATE " + qualified + " SET binlog_file = ?, binlog_offset = ?, gtid_set = ?, source_commit_us = ?,"
            + " applied_transactions = applied_transactions + ?, pending_file = NULL, pending_offset = NULL,"
            + " pending_gtid_set = NULL, " + WRITTEN_NOW + " WHERE stream = ?";
    }

    public void bindAdvance(PreparedStatement ps, SourcePosition to, long commitMicros, int transactions)
        throws SQLException {
        ps.setString(1, to.coordinates().file());
        ps.setLong(2, to.coordinates().offset());
        ps.setString(3, to.gtids());
        ps.setLong(4, commitMicros);
        ps.setInt(5, transactions);
        ps.setString(6, stream);
    }

    /** SQL that records a pending unit; parameters: file, offset, gtid set, stream. */
    public String pendingSql() {
        return "UPDATE " + qualified + " SET pending_file = ?, pending_offset = ?, pending_gtid_set = ?, "
            + WRITTEN_NOW + " WHERE stream = ?";
    }

    public void bindPending(PreparedStatement ps, SourcePosition end) throws SQLException {
        ps.setString(1, end.coordinates().file());
        ps.setLong(2, end.coordinates().offset());
        ps.setString(3, end.gtids());
        ps.setString(4, stream);
    }

    /** Removes this applier's row (a reset: the next start uses source.start). */
    public void delete(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + qualified + " WHERE stream = ?")) {
            ps.setString(1, stream);
            ps.executeUpdate();
        }
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
