package io.binlogapplier.verify;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.StateStore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reads verify makes, each in its own short consistent-snapshot transaction so that neither
 * server holds old row versions for long: a chunk's checksum or row hashes on the source together
 * with the binlog position of the snapshot, and on the target together with the applier's saved
 * position. Reads only; takes no locks. Used on one thread.
 */
final class ServerReads {
    /** A chunk read on one server, and the position it corresponds to (null: the target has no state row). */
    record Read<T>(BinlogCoordinates at, T value) {
    }

    private static final int READ_TIMEOUT_MILLIS = 15 * 60_000;

    private final Connection source;
    private final boolean mariadbSource;
    private final Connection target;
    private final String positionSql;
    private final String stream;

    ServerReads(Connection source, boolean mariadbSource, Connection target, StateStore state) throws SQLException {
        this.source = source;
        this.mariadbSource = mariadbSource;
        this.target = target;
        this.stream = state.stream();
        String table = ChunkSql.quote(state.schema()) + "." + ChunkSql.quote(StateStore.TABLE);
        boolean stateTable;
        try (PreparedStatement ps = target.prepareStatement("SELECT COUNT(*) FROM information_schema.TABLES"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, state.schema());
            ps.setString(2, StateStore.TABLE);
            try (ResultSet rs = ps.executeQuery()) {
                stateTable = rs.next() && rs.getLong(1) > 0;
            }
        }
        this.positionSql = stateTable ? "SELECT binlog_file, binlog_offset FROM " + table + " WHERE stream = ?" : null;
        for (Connection c : List.of(source, target)) {
            try (Statement s = c.createStatement()) {
                s.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                // TIMESTAMP values print in the session's zone: the same instants must print alike on both.
                s.execute("SET SESSION time_zone = '+00:00'");
                // One sql_mode on both: PAD_CHAR_TO_FULL_LENGTH on one server only pads every CHAR value there.
                s.execute("SET SESSION sql_mode = ''");
            }
            c.setAutoCommit(true);
            // The connections come with run's 30 s socket timeout; one read of a large keyless table may take
            // longer. Still bounded, so that a server that stops answering ends verify instead of hanging it.
            c.setNetworkTimeout(Runnable::run, READ_TIMEOUT_MILLIS);
        }
    }

    Read<Checksum> sourceChecksum(TableShape t, ChunkRange r) throws SQLException {
        return onSource(() -> checksum(source, ChunkSql.checksum(t.sourceSchema(), t, r)));
    }

    Read<Checksum> targetChecksum(TableShape t, ChunkRange r) throws SQLException {
        return onTarget(() -> checksum(target, ChunkSql.checksum(t.targetSchema(), t, r)));
    }

    Read<Map<String, String>> sourceRows(TableShape t, ChunkRange r) throws SQLException {
        return onSource(() -> rows(source, t, ChunkSql.rowHashes(t.sourceSchema(), t, r)));
    }

    Read<Map<String, String>> targetRows(TableShape t, ChunkRange r) throws SQLException {
        return onTarget(() -> rows(target, t, ChunkSql.rowHashes(t.targetSchema(), t, r)));
    }

    /** The applier's saved position now (autocommit read); null without a state row. */
    BinlogCoordinates applied() throws SQLException {
        return position(target);
    }

    /** The key values of the next chunk's upper bound on the source; null when the next chunk is the last. */
    List<Object> nextBoundary(TableShape t, List<Object> after, int rows) throws SQLException {
        ChunkSql.Query q = ChunkSql.nextBoundary(t.sourceSchema(), t, after, rows);
        try (PreparedStatement ps = prepare(source, q); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            List<Object> key = new ArrayList<>();
            for (int i = 1; i <= t.key().size(); i++) {
                key.add(keyValue(rs, i));
            }
            return key;
        }
    }

    private interface Body<T> {
        T run() throws SQLException;
    }

    private <T> Read<T> onSource(Body<T> body) throws SQLException {
        try (Statement s = source.createStatement()) {
            s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
            try {
                BinlogCoordinates at = snapshotPosition(s);
                T value = body.run();
                return new Read<>(at, value);
            } finally {
                s.execute("COMMIT");
            }
        }
    }

    private <T> Read<T> onTarget(Body<T> body) throws SQLException {
        try (Statement s = target.createStatement()) {
            s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
            try {
                BinlogCoordinates at = position(target);
                T value = body.run();
                return new Read<>(at, value);
            } finally {
                s.execute("COMMIT");
            }
        }
    }

    /**
     * MariaDB names the binlog position of a {@code WITH CONSISTENT SNAPSHOT} transaction's snapshot in
     * {@code Binlog_snapshot_file}/{@code Binlog_snapshot_position}. MySQL has no such thing; its
     * binlog end read after the snapshot began is at or after the snapshot, which is all
     * {@link Attempt} needs (the wait for the applier is then a little longer).
     */
    private BinlogCoordinates snapshotPosition(Statement s) throws SQLException {
        if (mariadbSource) {
            String file = null;
            long offset = -1;
            try (ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'binlog_snapshot_%'")) {
                while (rs.next()) {
                    if (rs.getString(1).equalsIgnoreCase("Binlog_snapshot_file")) {
                        file = rs.getString(2);
                    } else if (rs.getString(1).equalsIgnoreCase("Binlog_snapshot_position")) {
                        offset = Long.parseLong(rs.getString(2));
                    }
                }
            }
            if (file != null && !file.isEmpty() && offset >= 0) {
                return new BinlogCoordinates(file, offset);
            }
        }
        try (ResultSet rs = binlogStatus(s)) {
            if (!rs.next()) {
                throw new SQLException("the source reports no binary log position: is log_bin on?");
            }
            return new BinlogCoordinates(rs.getString(1), rs.getLong(2));
        }
    }

    private static ResultSet binlogStatus(Statement s) throws SQLException {
        try {
            return s.executeQuery("SHOW BINARY LOG STATUS");
        } catch (SQLException e) { // MariaDB, and MySQL before 8.2, know only SHOW MASTER STATUS
            return s.executeQuery("SHOW MASTER STATUS");
        }
    }

    private BinlogCoordinates position(Connection c) throws SQLException {
        if (positionSql == null) {
            return null;
        }
        try (PreparedStatement ps = c.prepareStatement(positionSql)) {
            ps.setString(1, stream);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new BinlogCoordinates(rs.getString(1), rs.getLong(2)) : null;
            }
        }
    }

    private static Checksum checksum(Connection c, ChunkSql.Query q) throws SQLException {
        try (PreparedStatement ps = prepare(c, q); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Checksum(rs.getLong(1), rs.getBigDecimal(2).longValue(), rs.getBigDecimal(3).longValue());
        }
    }

    /** In place of a row's MD5: the key is held by more than one row (a target table without the source's key). */
    static final String DUPLICATE = "duplicate key";

    /** Key text (as {@link ChunkRange#describe} writes values) → MD5 of the row, or {@link #DUPLICATE}. */
    private static Map<String, String> rows(Connection c, TableShape t, ChunkSql.Query q) throws SQLException {
        Map<String, String> rows = new LinkedHashMap<>();
        int n = t.key().size();
        try (PreparedStatement ps = prepare(c, q); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                List<Object> key = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    key.add(keyValue(rs, i));
                }
                String k = ChunkRange.values(key);
                if (rows.put(k, rs.getString(n + 1)) != null) {
                    rows.put(k, DUPLICATE); // equals no row's MD5: the key differs
                }
            }
        }
        return rows;
    }

    /**
     * A key column's value as bound back into the chunk statements and written in key texts. Temporal
     * values go as the server's text: {@code java.sql.Time} drops a TIME(n)'s fraction (rows 0.1 s apart
     * had one key text, so a changed row hid behind its neighbour), and a TIMESTAMP or DATETIME read as
     * a {@code java.sql.Timestamp} in a JVM zone with daylight saving fails in the hour the clocks skip.
     * A string compared with a temporal column is read as that column's type. Numbers and bytes stay as
     * the driver gives them (a BIGINT or DECIMAL compared with a string would go through a double).
     */
    static Object keyValue(ResultSet rs, int column) throws SQLException {
        switch (rs.getMetaData().getColumnType(column)) {
            case java.sql.Types.TIME, java.sql.Types.DATE, java.sql.Types.TIMESTAMP,
                 java.sql.Types.TIMESTAMP_WITH_TIMEZONE, java.sql.Types.TIME_WITH_TIMEZONE:
                return rs.getString(column);
            default:
                return rs.getObject(column);
        }
    }

    private static PreparedStatement prepare(Connection c, ChunkSql.Query q) throws SQLException {
        PreparedStatement ps = c.prepareStatement(q.sql());
        for (int i = 0; i < q.parameters().size(); i++) {
            ps.setObject(i + 1, q.parameters().get(i));
        }
        return ps;
    }
}
