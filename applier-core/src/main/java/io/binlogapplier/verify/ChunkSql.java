package io.binlogapplier.verify;

import java.util.ArrayList;
import java.util.List;

/**
 * The SQL verify runs for a table: chunk boundaries, a chunk's checksum, its rows' hashes. Pure: it
 * returns text and parameters. The same statement runs on the source (source schema) and the target
 * (target schema), so both compute one row text the same way.
 *
 * <p>A row's text is {@code CONCAT_WS('#', CHAR_LENGTH(c1), c1, CHAR_LENGTH(c2), c2, ..., flags)}
 * with {@code flags} the string of {@code ISNULL(ci)}: {@code CONCAT_WS} skips NULLs, so the flags tell
 * NULL from absent, and the lengths keep a {@code '#'} inside a value from shifting the next column
 * (without them {@code ('a#', 'b')} and {@code ('a', '#b')} would hash alike). Text columns are
 * converted to utf8mb4 first: mixing character sets in one {@code CONCAT_WS} is an "Illegal mix of
 * collations" error, and a target column in another character set holding the same text still
 * compares equal. A large value (BLOB, TEXT, JSON, spatial) enters the text as its MD5: a row text longer
 * than {@code max_allowed_packet} would be NULL (with only a warning), and NULL hashes are skipped by
 * BIT_XOR and SUM and equal each other row by row, so such rows were counted but never compared.
 */
public final class ChunkSql {
    private ChunkSql() {
    }

    /** A statement and its parameters in order. */
    public record Query(String sql, List<Object> parameters) {
    }

    public static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    static String table(String schema, TableShape t) {
        return quote(schema) + "." + quote(t.table());
    }

    /** The expression of a row's text (see the class comment). */
    static String rowText(TableShape t) {
        List<String> parts = new ArrayList<>();
        StringBuilder flags = new StringBuilder("CONCAT(");
        for (int i = 0; i < t.columns().size(); i++) {
            TableShape.Column c = t.columns().get(i);
            String col = quote(c.name());
            String value = c.character() ? "CONVERT(" + col + " USING utf8mb4)" : col;
            parts.add("CHAR_LENGTH(" + value + ")");
            parts.add(c.large() ? "MD5(" + value + ")" : value);
            flags.append(i == 0 ? "" : ", ").append("ISNULL(").append(col).append(')');
        }
        flags.append(')');
        parts.add(flags.toString());
        return "CONCAT_WS('#', " + String.join(", ", parts) + ")";
    }

    /** COUNT, BIT_XOR of the first 64 bits of MD5, SUM of CRC32, over the chunk's rows in {@code schema}. */
    public static Query checksum(String schema, TableShape t, ChunkRange range) {
        String row = rowText(t);
        List<Object> params = new ArrayList<>();
        String where = where(t, range, params);
        return new Query("SELECT COUNT(*), COALESCE(BIT_XOR(CAST(CONV(LEFT(MD5(" + row + "), 16), 16, 10) AS UNSIGNED)), 0),"
            + " COALESCE(SUM(CRC32(" + row + ")), 0) FROM " + table(schema, t) + where, params);
    }

    /** The key columns and MD5 of each row of the chunk, in key order. Only for keyed tables. */
    public static Query rowHashes(String schema, TableShape t, ChunkRange range) {
        List<Object> params = new ArrayList<>();
        String where = where(t, range, params);
        return new Query("SELECT " + keyList(t) + ", MD5(" + rowText(t) + ") FROM " + table(schema, t) + where
            + " ORDER BY " + keyList(t), params);
    }

    /**
     * The key of the row {@code rows} rows into the key order after {@code after} (null: from the
     * start): the inclusive upper bound of the next chunk; no row means the next chunk is the last.
     */
    public static Query nextBoundary(String schema, TableShape t, List<Object> after, int rows) {
        List<Object> params = new ArrayList<>();
        String where = after == null ? "" : " WHERE " + above(t.key(), after, params);
        return new Query("SELECT " + keyList(t) + " FROM " + table(schema, t) + where + " ORDER BY " + keyList(t)
            + " LIMIT 1 OFFSET " + (rows - 1), params);
    }

    private static String keyList(TableShape t) {
        return String.join(", ", t.key().stream().map(ChunkSql::quote).toList());
    }

    private static String where(TableShape t, ChunkRange range, List<Object> params) {
        List<String> conditions = new ArrayList<>();
        if (range.after() != null) {
            conditions.add(above(t.key(), range.after(), params));
        }
        if (range.upTo() != null) {
            String below = atOrBelow(t.key(), range.upTo(), params);
            // The key is NOT NULL on the source; a target whose column allows NULL may hold rows with a
            // NULL key, which no range would include: the first chunk takes them, as ORDER BY puts them first.
            conditions.add(range.after() != null ? below : "(" + below + " OR " + String.join(" OR ",
                t.key().stream().map(k -> quote(k) + " IS NULL").toList()) + ")");
        }
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    /**
     * {@code key > values} spelt out column by column ({@code a > ? OR (a = ? AND b > ?)}): MariaDB
     * does not use an index for a row constructor comparison {@code (a, b) > (?, ?)}.
     */
    static String above(List<String> key, List<Object> values, List<Object> params) {
        return lexicographic(key, values, params, ">", ">");
    }

    /** {@code key <= values}: {@code a < ? OR (a = ? AND b <= ?)}. */
    static String atOrBelow(List<String> key, List<Object> values, List<Object> params) {
        return lexicographic(key, values, params, "<", "<=");
    }

    private static String lexicographic(List<String> key, List<Object> values, List<Object> params, String strict,
                                        String last) {
        List<String> alternatives = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            String op = i == key.size() - 1 ? last : strict;
            alternatives.add(prefixEqual(key, values, params, i) + quote(key.get(i)) + " " + op + " ?");
            params.add(values.get(i));
        }
        if (alternatives.size() == 1) {
            return alternatives.get(0);
        }
        return "(" + String.join(" OR ", alternatives.stream().map(a -> "(" + a + ")").toList()) + ")";
    }

    private static String prefixEqual(List<String> key, List<Object> values, List<Object> params, int upTo) {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < upTo; j++) {
            sb.append(quote(key.get(j))).append(" = ? AND ");
            params.add(values.get(j));
        }
        return sb.toString();
    }
}
