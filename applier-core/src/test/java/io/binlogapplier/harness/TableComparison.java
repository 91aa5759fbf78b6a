package io.binlogapplier.harness;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Compares tables of a source and a target: same table list, CHECKSUM TABLE, and an ordered
 * dump of every row (values compared as bytes), so that a failure prints the rows that differ.
 */
public final class TableComparison {
    private TableComparison() {
    }

    /** The result of comparing one schema set. */
    public record Report(List<String> tables, List<String> differences) {
        public boolean same() {
            return differences.isEmpty();
        }

        @Override
        public String toString() {
            return same() ? tables.size() + " tables identical"
                : differences.size() + " differences:\n" + String.join("\n", differences);
        }
    }

    /** Fails (AssertionError) unless every table of {@code schemas} matches. */
    public static Report assertSame(MariaDb source, MariaDb target, String... schemas) {
        Report r = compare(source, target, schemas);
        if (!r.same()) {
            throw new AssertionError("source and target differ: " + r);
        }
        return r;
    }

    public static Report compare(MariaDb source, MariaDb target, String... schemas) {
        try (Connection s = source.connect(); Connection t = target.connect()) {
            List<String> differences = new ArrayList<>();
            List<String> all = new ArrayList<>();
            for (String schema : schemas) {
                List<String> st = tables(s, schema);
                List<String> tt = tables(t, schema);
                if (!st.equals(tt)) {
                    differences.add("schema " + schema + ": source tables " + st + ", target tables " + tt);
                }
                for (String table : st) {
                    if (!tt.contains(table)) {
                        continue;
                    }
                    all.add(schema + "." + table);
                    compareTable(s, t, schema, table, differences);
                }
            }
            return new Report(all, differences);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> tables(Connection c, String schema) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_NAME FROM information_schema.TABLES"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME")) {
            ps.setString(1, schema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /**
     * Fails unless the target schema {@code targetSchema} holds exactly the tables of the source's
     * {@code sourceSchema}, row for row (for a schema the applier renames). With {@code tables}, only those.
     */
    public static Report assertSameRenamed(MariaDb source, String sourceSchema, MariaDb target, String targetSchema,
                                           String... tables) {
        try (Connection s = source.connect(); Connection t = target.connect()) {
            List<String> differences = new ArrayList<>();
            List<String> st = tables.length > 0 ? List.of(tables) : tables(s, sourceSchema);
            List<String> tt = tables(t, targetSchema);
            if (tables.length == 0 && !st.equals(tt) || !tt.containsAll(st)) {
                differences.add("source schema " + sourceSchema + " tables " + st + ", target schema " + targetSchema
                    + " tables " + tt);
            }
            List<String> all = new ArrayList<>();
            for (String table : st) {
                if (tt.contains(table)) {
                    all.add(targetSchema + "." + table);
                    compareTable(s, t, sourceSchema, targetSchema, table, differences);
                }
            }
            Report r = new Report(all, differences);
            if (!r.same()) {
                throw new AssertionError("source and target differ: " + r);
            }
            return r;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void compareTable(Connection s, Connection t, String schema, String table,
                                     List<String> differences) throws SQLException {
        compareTable(s, t, schema, schema, table, differences);
    }

    private static void compareTable(Connection s, Connection t, String sourceSchema, String targetSchema,
                                     String table, List<String> differences) throws SQLException {
        String q = "`" + targetSchema.replace("`", "``") + "`.`" + table.replace("`", "``") + "`";
        String sq = "`" + sourceSchema.replace("`", "``") + "`.`" + table.replace("`", "``") + "`";
        List<String> sourceRows = dump(s, sq);
        List<String> targetRows = dump(t, q);
        // CHECKSUM TABLE reads a VIRTUAL column's bytes without computing them: it differs from one call to the
        // next on a table that has one, and the dump (which computes them) is the comparison there
        boolean virtual = hasVirtualColumns(s, sourceSchema, table);
        String sc = virtual ? "(virtual columns)" : checksum(s, sq);
        String tc = virtual ? "(virtual columns)" : checksum(t, q);
        if (sourceRows.equals(targetRows) && Objects.equals(sc, tc)) {
            return;
        }
        StringBuilder sb = new StringBuilder("table " + q + ": checksum source " + sc + " target " + tc + ", rows "
            + sourceRows.size() + " vs " + targetRows.size());
        List<String> onlySource = new ArrayList<>(sourceRows);
        targetRows.forEach(onlySource::remove);
        List<String> onlyTarget = new ArrayList<>(targetRows);
        sourceRows.forEach(onlyTarget::remove);
        onlySource.stream().limit(10).forEach(r -> sb.append("\n    only on source: ").append(r));
        onlyTarget.stream().limit(10).forEach(r -> sb.append("\n    only on target: ").append(r));
        differences.add(sb.toString());
    }

    static boolean hasVirtualColumns(Connection c, String schema, String table) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM information_schema.COLUMNS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND EXTRA LIKE '%VIRTUAL%'")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    static String checksum(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("CHECKSUM TABLE " + table)) {
            return rs.next() ? rs.getString(2) : null;
        }
    }

    /** Every row, columns as hex of their bytes (exact), sorted; generated columns included. */
    static List<String> dump(Connection c, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            HexFormat hex = HexFormat.of();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder("(");
                for (int i = 1; i <= n; i++) {
                    if (i > 1) {
                        sb.append(", ");
                    }
                    byte[] b = rs.getBytes(i);
                    if (b == null) {
                        sb.append("NULL");
                    } else if (printable(b)) {
                        sb.append('\'').append(new String(b, StandardCharsets.UTF_8)).append('\'');
                    } else {
                        sb.append("0x").append(hex.formatHex(b));
                    }
                }
                rows.add(sb.append(')').toString());
            }
        }
        String[] sorted = rows.toArray(new String[0]);
        Arrays.sort(sorted);
        return List.of(sorted);
    }

    private static boolean printable(byte[] b) {
        String s = new String(b, StandardCharsets.UTF_8);
        if (!Arrays.equals(s.getBytes(StandardCharsets.UTF_8), b)) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
