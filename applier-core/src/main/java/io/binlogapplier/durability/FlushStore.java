package io.binlogapplier.durability;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The target's flush settings and {@code <state_schema>.applier_flush_settings}, where an applier
 * saves the original values before it relaxes them. A row means "this applier holds the settings
 * relaxed; these were the values before"; it is deleted once they are put back. Changes happen
 * under a named lock so that appliers of one target take turns.
 */
final class FlushStore {
    static final String TABLE = "applier_flush_settings";
    /** One lock for every applier on the target, whatever its state schema. */
    static final String LOCK = "binlog_applier_flush_settings";

    private final String stream;
    private final String qualified;

    FlushStore(String schema, String stream) {
        this.stream = stream;
        this.qualified = "`" + schema.replace("`", "``") + "`.`" + TABLE + "`";
    }

    String table() {
        return qualified;
    }

    void ensureTable(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + qualified + " ("
                + " stream VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " innodb_flush_log_at_trx_commit TINYINT UNSIGNED NOT NULL,"
                + " sync_binlog INT UNSIGNED NOT NULL,"
                + " saved_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)"
                + ") ENGINE=InnoDB COMMENT='binlog-applier: target flush settings before an applier relaxed them;"
                + " a row = that applier holds them relaxed'");
        }
        commit(c);
    }

    /** @return false when another session held the lock for 30 s (we go on without it) */
    boolean lock(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT GET_LOCK(?, 30)")) {
            ps.setString(1, LOCK);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getInt(1) == 1;
            }
        }
    }

    void unlock(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DO RELEASE_LOCK(?)")) {
            ps.setString(1, LOCK);
            ps.execute();
        }
    }

    /** Every applier's saved originals, by applier name. */
    Map<String, FlushSettings> saved(Connection c) throws SQLException {
        Map<String, FlushSettings> rows = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT stream,"
            + " innodb_flush_log_at_trx_commit, sync_binlog FROM " + qualified + " ORDER BY saved_at, stream")) {
            while (rs.next()) {
                rows.put(rs.getString(1), new FlushSettings(rs.getInt(2), rs.getLong(3)));
            }
        }
        return rows;
    }

    /**
     * Saves the originals, stamped with the target's clock ({@code SYSDATE}, not the column's default,
     * which takes a session's {@code timestamp}: a pool connection a worker used holds the source's time).
     */
    void save(Connection c, FlushSettings originals) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + qualified
            + " (stream, innodb_flush_log_at_trx_commit, sync_binlog, saved_at) VALUES (?, ?, ?, SYSDATE(6))")) {
            ps.setString(1, stream);
            ps.setInt(2, originals.flushLogAtTrxCommit());
            ps.setLong(3, originals.syncBinlog());
            ps.executeUpdate();
        }
        commit(c);
    }

    void forget(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + qualified + " WHERE stream = ?")) {
            ps.setString(1, stream);
            ps.executeUpdate();
        }
        commit(c);
    }

    FlushSettings current(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
            "SELECT @@GLOBAL.innodb_flush_log_at_trx_commit, @@GLOBAL.sync_binlog")) {
            rs.next();
            return new FlushSettings(rs.getInt(1), rs.getLong(2));
        }
    }

    void set(Connection c, FlushSettings to) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET GLOBAL innodb_flush_log_at_trx_commit = " + to.flushLogAtTrxCommit());
            s.execute("SET GLOBAL sync_binlog = " + to.syncBinlog());
        }
    }

    private static void commit(Connection c) throws SQLException {
        if (!c.getAutoCommit()) {
            c.commit();
        }
    }
}
