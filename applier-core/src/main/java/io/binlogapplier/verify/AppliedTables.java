package io.binlogapplier.verify;

import io.binlogapplier.config.TablePattern;
import io.binlogapplier.filter.ReplicationFilter;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The source's tables the applier applies ({@link ReplicationFilter}: include, exclude, the state
 * schema), optionally narrowed to {@code --tables} patterns (source names), each with its columns,
 * its chunking key and its target name ({@code filter.rename}). Reads the source's information_schema.
 */
public final class AppliedTables {
    /** DATA_TYPE of columns whose values may be long: every BLOB and TEXT, JSON, spatial types. */
    private static final java.util.regex.Pattern LARGE = java.util.regex.Pattern.compile("(?i).*(blob|text)|json"
        + "|geometry|point|linestring|polygon|multipoint|multilinestring|multipolygon|geometrycollection|geomcollection");
    private static final Set<String> SYSTEM = Set.of("mysql", "information_schema", "performance_schema", "sys");

    private AppliedTables() {
    }

    public static List<TableShape> list(Connection source, ReplicationFilter filter, List<TablePattern> only)
        throws SQLException {
        List<String[]> names = new ArrayList<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
            + " WHERE TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED') ORDER BY TABLE_SCHEMA, TABLE_NAME"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String schema = rs.getString(1);
                String table = rs.getString(2);
                if (SYSTEM.contains(schema.toLowerCase(java.util.Locale.ROOT)) || !filter.replicates(schema, table)) {
                    continue;
                }
                if (!only.isEmpty() && only.stream().noneMatch(p -> p.matches(schema, table))) {
                    continue;
                }
                names.add(new String[] {schema, table});
            }
        }
        List<TableShape> shapes = new ArrayList<>();
        for (String[] n : names) {
            shapes.add(shape(source, n[0], n[1], filter.target(n[0])));
        }
        return shapes;
    }

    static TableShape shape(Connection source, String schema, String table, String targetSchema) throws SQLException {
        List<TableShape.Column> columns = new ArrayList<>();
        Map<String, Boolean> notNull = new LinkedHashMap<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT COLUMN_NAME, CHARACTER_SET_NAME, IS_NULLABLE, DATA_TYPE"
            + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
            // a system-versioned table's period columns: the time each server wrote the row, not data
            + " AND COALESCE(GENERATION_EXPRESSION, '') NOT IN ('ROW START', 'ROW END') ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String charset = rs.getString(2);
                    columns.add(new TableShape.Column(rs.getString(1), charset != null && !charset.equals("binary"),
                        LARGE.matcher(rs.getString(4)).matches()));
                    notNull.put(rs.getString(1).toLowerCase(java.util.Locale.ROOT), "NO".equals(rs.getString(3)));
                }
            }
        }
        Map<String, List<String>> unique = new LinkedHashMap<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0"
            + " ORDER BY INDEX_NAME <> 'PRIMARY', INDEX_NAME, SEQ_IN_INDEX")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    unique.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                }
            }
        }
        List<String> key = List.of();
        for (List<String> cols : unique.values()) {
            // A unique key over a nullable column may hold many NULLs: it does not name one row. A part
            // without a column (a MySQL 8 functional key part) cannot order chunks either.
            if (cols.stream().allMatch(c -> c != null
                && notNull.getOrDefault(c.toLowerCase(java.util.Locale.ROOT), false))) {
                key = cols;
                break;
            }
        }
        return new TableShape(schema, table, targetSchema, columns, key);
    }

    /** Whether the target has {@code schema.table}. */
    static boolean exists(Connection target, String schema, String table) throws SQLException {
        try (PreparedStatement ps = target.prepareStatement("SELECT COUNT(*) FROM information_schema.TABLES"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }
}
