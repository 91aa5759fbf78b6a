package io.binlogapplier.status;

import io.binlogapplier.ApplierException;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.TransactionRef;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * {@code <state_schema>.applier_run}, one row per applier beside its position row: the process that
 * runs it (host, pid, the target connection holding the stream's lock, when it started, when it
 * last said it was alive, when it stopped cleanly) and the last error that stopped it. Each write
 * is one autocommitted statement on a connection of its own, never in a unit's transaction.
 * Times are UTC ({@code UTC_TIMESTAMP(6)}, target clock), read with the session's {@code timestamp}
 * at its default first: a pool connection a worker used keeps the source's statement time that its
 * last BINLOG statement or {@code SET timestamp} left, and {@code UTC_TIMESTAMP()} would return that.
 * Stateless apart from names; thread-safe.
 */
public final class RunTable {
    public static final String TABLE = "applier_run";

    private final String schema;
    private final String stream;
    private final String qualified;

    public RunTable(String schema, String stream) {
        this.schema = schema;
        this.stream = stream;
        this.qualified = "`" + schema.replace("`", "``") + "`.`" + TABLE + "`";
    }

    public String schema() {
        return schema;
    }

    public String stream() {
        return stream;
    }

    public String qualified() {
        return qualified;
    }

    /** The process as the row and the stream's lock tell it. */
    public record Process(String host, long pid, long connectionId, Instant startedAt, Instant aliveAt,
                          Instant stoppedAt, Double aliveAgoSeconds, Long lockHolder) {
        /** An applier holds the stream's lock: it runs now. */
        public boolean running() {
            return lockHolder != null && lockHolder == connectionId && stoppedAt == null;
        }

        public String describe() {
            if (running()) {
                return "running: pid " + pid + " on " + host + " since " + startedAt + ", alive "
                    + String.format(java.util.Locale.ROOT, "%.1f", aliveAgoSeconds) + " s ago (target connection "
                    + connectionId + " holds the stream's lock)";
            }
            String held = lockHolder == null ? "" : "; target connection " + lockHolder + " holds the stream's lock"
                + " (a command such as skip, or an applier that lost its liveness row)";
            if (startedAt == null) {
                return "not running: no applier process seen yet" + held;
            }
            if (stoppedAt != null) {
                return "not running: pid " + pid + " on " + host + " stopped at " + stoppedAt + held;
            }
            return "not running: pid " + pid + " on " + host + " last alive at " + aliveAt + " and ended without a"
                + " clean stop (killed, crashed or cut off)" + held;
        }
    }

    /** Creates the schema and table if missing (and the skipped table beside it). */
    public void ensureTable(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS `" + schema.replace("`", "``") + "`");
            s.execute("CREATE TABLE IF NOT EXISTS " + qualified + " ("
                + " stream VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " host VARCHAR(255) NULL, pid BIGINT NULL, connection_id BIGINT UNSIGNED NULL,"
                + " started_at DATETIME(6) NULL, alive_at DATETIME(6) NULL, stopped_at DATETIME(6) NULL,"
                + " error_code INT NULL, error_name VARCHAR(64) NULL, error_message TEXT NULL,"
                + " error_gtid VARCHAR(255) NULL, error_file VARCHAR(512) NULL, error_offset BIGINT UNSIGNED NULL,"
                + " error_in_transaction TINYINT NULL, error_at DATETIME(6) NULL"
                + ") ENGINE=InnoDB COMMENT='binlog-applier process and last error (UTC times)'");
        }
        new SkippedTable(schema).ensureTable(c);
    }

    /** Lets {@code UTC_TIMESTAMP()} on {@code c} read the target's clock (see the class comment). */
    private static void targetClock(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION timestamp = DEFAULT");
        }
    }

    /** Registers the running process (holding the lock on connection {@code connectionId}); clears a stop time. */
    public void register(Connection c, String host, long pid, long connectionId) throws SQLException {
        targetClock(c);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + qualified + " (stream, host, pid,"
            + " connection_id, started_at, alive_at, stopped_at) VALUES (?, ?, ?, ?, UTC_TIMESTAMP(6),"
            + " UTC_TIMESTAMP(6), NULL) ON DUPLICATE KEY UPDATE host = VALUES(host), pid = VALUES(pid),"
            + " connection_id = VALUES(connection_id), started_at = VALUES(started_at), alive_at = VALUES(alive_at),"
            + " stopped_at = NULL")) {
            ps.setString(1, stream);
            ps.setString(2, host);
            ps.setLong(3, pid);
            ps.setLong(4, connectionId);
            ps.executeUpdate();
        }
    }

    /** A running process says it is alive; after a reconnect its lock connection changed. */
    public void alive(Connection c, long connectionId) throws SQLException {
        targetClock(c);
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + qualified + " SET alive_at = UTC_TIMESTAMP(6),"
            + " connection_id = ? WHERE stream = ?")) {
            ps.setLong(1, connectionId);
            ps.setString(2, stream);
            ps.executeUpdate();
        }
    }

    public void stopped(Connection c) throws SQLException {
        targetClock(c);
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + qualified + " SET alive_at = UTC_TIMESTAMP(6),"
            + " stopped_at = UTC_TIMESTAMP(6) WHERE stream = ?")) {
            ps.setString(1, stream);
            ps.executeUpdate();
        }
    }

    /**
     * Keeps {@code e} as the last error: in its transaction when it names one, else at
     * {@code saved} (where the applier will resume).
     */
    public void recordError(Connection c, ApplierException e, SourcePosition saved) throws SQLException {
        targetClock(c);
        TransactionRef t = e.transaction();
        boolean inTransaction = t != null;
        if (t == null) {
            t = new TransactionRef("", saved == null ? new BinlogCoordinates("", 0) : saved.coordinates());
        }
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + qualified + " (stream, error_code,"
            + " error_name, error_message, error_gtid, error_file, error_offset, error_in_transaction, error_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(6)) ON DUPLICATE KEY UPDATE"
            + " error_code = VALUES(error_code), error_name = VALUES(error_name),"
            + " error_message = VALUES(error_message), error_gtid = VALUES(error_gtid),"
            + " error_file = VALUES(error_file), error_offset = VALUES(error_offset),"
            + " error_in_transaction = VALUES(error_in_transaction), error_at = VALUES(error_at)")) {
            ps.setString(1, stream);
            ps.setInt(2, e.exitCode().code());
            ps.setString(3, e.exitCode().name());
            ps.setString(4, message.length() > 60_000 ? message.substring(0, 60_000) : message);
            ps.setString(5, t.gtid());
            ps.setString(6, t.start().file());
            ps.setLong(7, t.start().offset());
            ps.setInt(8, inTransaction ? 1 : 0);
            ps.executeUpdate();
        }
    }

    /**
     * Clears the last error; when {@code only} is given, only if it is still one of the same code at
     * the same place (a later failure elsewhere stays).
     *
     * @return whether an error was cleared
     */
    public boolean clearError(Connection c, LastError only) throws SQLException {
        String sql = "UPDATE " + qualified + " SET error_code = NULL, error_name = NULL, error_message = NULL,"
            + " error_gtid = NULL, error_file = NULL, error_offset = NULL, error_in_transaction = NULL,"
            + " error_at = NULL WHERE stream = ? AND error_code IS NOT NULL" + (only == null ? ""
            : " AND error_code = ? AND error_gtid = ? AND error_file = ? AND error_offset = ?");
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, stream);
            if (only != null) {
                ps.setInt(2, only.exitCode());
                ps.setString(3, only.transaction().gtid());
                ps.setString(4, only.transaction().start().file());
                ps.setLong(5, only.transaction().start().offset());
            }
            return ps.executeUpdate() > 0;
        }
    }

    public Optional<LastError> lastError(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT error_code, error_name, error_message, error_gtid,"
            + " error_file, error_offset, error_in_transaction, error_at FROM " + qualified
            + " WHERE stream = ? AND error_code IS NOT NULL")) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new LastError(rs.getInt(1), rs.getString(2), rs.getString(3),
                    new TransactionRef(rs.getString(4), new BinlogCoordinates(rs.getString(5), rs.getLong(6))),
                    rs.getInt(7) == 1, utc(rs.getObject(8, LocalDateTime.class))));
            }
        }
    }

    /** The process as the row and the lock say; empty when there is no row. */
    public Optional<Process> process(Connection c, String lockName) throws SQLException {
        targetClock(c);
        try (PreparedStatement ps = c.prepareStatement("SELECT host, pid, connection_id, started_at, alive_at,"
            + " stopped_at, TIMESTAMPDIFF(MICROSECOND, alive_at, UTC_TIMESTAMP(6)) / 1e6, IS_USED_LOCK(?) FROM "
            + qualified + " WHERE stream = ?")) {
            ps.setString(1, lockName);
            ps.setString(2, stream);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                long holder = rs.getLong(8);
                Long lockHolder = rs.wasNull() ? null : holder;
                Object ago = rs.getObject(7);
                return Optional.of(new Process(rs.getString(1), rs.getLong(2), rs.getLong(3),
                    utc(rs.getObject(4, LocalDateTime.class)), utc(rs.getObject(5, LocalDateTime.class)),
                    utc(rs.getObject(6, LocalDateTime.class)), ago == null ? null : ((Number) ago).doubleValue(),
                    lockHolder));
            }
        }
    }

    private static Instant utc(LocalDateTime t) {
        return t == null ? null : t.toInstant(ZoneOffset.UTC);
    }
}
