package io.binlogapplier.apply;

import java.util.List;

/**
 * Renders the SQL text of row changes. Pure; parameters are bound by {@link ValueBinder}.
 *
 * <ul>
 *   <li>INSERT of the present, non-generated columns, several rows per statement;</li>
 *   <li>UPDATE/DELETE by the lookup key ({@code `k` = ?}; text keys compare under the column's
 *       collation, so the index is used);</li>
 *   <li>tables without a usable key: the whole before image, {@code <=>} so NULLs match, text
 *       compared as bytes so rows that differ only in case or trailing spaces stay apart, and
 *       {@code LIMIT 1} so one of several identical rows changes, as on the source.</li>
 * </ul>
 */
public final class RowSql {
    private RowSql() {
    }

    public static String insert(TableSchema t, List<ColumnInfo> columns, int rows, boolean replace) {
        StringBuilder sb = new StringBuilder(64 + columns.size() * 16 + rows * columns.size() * 2);
        sb.append(replace ? "REPLACE INTO " : "INSERT INTO ").append(t.qualifiedName()).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(Sql.quote(columns.get(i).name()));
        }
        sb.append(") VALUES ");
        for (int r = 0; r < rows; r++) {
            if (r > 0) {
                sb.append(',');
            }
            sb.append('(');
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(value(columns.get(i)));
            }
            sb.append(')');
        }
        return sb.toString();
    }

    /**
     * {@code INSERT INTO t (…) VALUES (…), … ON DUPLICATE KEY UPDATE `c`=VALUES(`c`), …}: each row
     * replaces the values of {@code update} in the row with its key ({@code VALUES()} is deprecated
     * but kept by MySQL 8.0.20+, and the only form MariaDB has).
     */
    public static String upsert(TableSchema t, List<ColumnInfo> columns, List<ColumnInfo> update, int rows) {
        StringBuilder sb = new StringBuilder(insert(t, columns, rows, false));
        sb.append(" ON DUPLICATE KEY UPDATE ");
        for (int i = 0; i < update.size(); i++) {
            String c = Sql.quote(update.get(i).name());
            sb.append(i > 0 ? "," : "").append(c).append("=VALUES(").append(c).append(')');
        }
        return sb.toString();
    }

    public static String update(TableSchema t, List<ColumnInfo> set, List<ColumnInfo> where, boolean byKey) {
        StringBuilder sb = new StringBuilder(64 + (set.size() + where.size()) * 20);
        sb.append("UPDATE ").append(t.qualifiedName()).append(" SET ");
        for (int i = 0; i < set.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(Sql.quote(set.get(i).name())).append('=').append(value(set.get(i)));
        }
        where(sb, where, byKey);
        return sb.toString();
    }

    public static String delete(TableSchema t, List<ColumnInfo> where, boolean byKey) {
        StringBuilder sb = new StringBuilder(64 + where.size() * 20);
        sb.append("DELETE FROM ").append(t.qualifiedName());
        where(sb, where, byKey);
        return sb.toString();
    }

    /**
     * Deletes up to {@code ?} (the last parameter) of the rows whose values equal the image's, in a
     * table without a usable key: equal rows cannot be told apart, so any of them will do.
     */
    public static String deleteSome(TableSchema t, List<ColumnInfo> where) {
        StringBuilder sb = new StringBuilder(64 + where.size() * 20);
        sb.append("DELETE FROM ").append(t.qualifiedName()).append(" WHERE ");
        conditions(sb, where, false);
        return sb.append(" LIMIT ?").toString();
    }

    /**
     * Counts, per row value, the copies a keyless table holds, and locks them: {@code SELECT CASE
     * WHEN <value 1> THEN 0 … END, COUNT(*) FROM t WHERE <any of the values> GROUP BY 1 FOR UPDATE},
     * each value matched as in {@link #deleteSome}; a row names the value by its position and counts
     * its copies (a value without copies has no row). Its parameters appear twice: in the CASE, then
     * in the WHERE, which is {@link #anyOf}.
     */
    public static String countCopies(TableSchema t, List<ColumnInfo> columns, int values, boolean withNulls) {
        String match = match(columns);
        StringBuilder sb = new StringBuilder(64 + 2 * values * (match.length() + 16));
        sb.append("SELECT CASE");
        for (int v = 0; v < values; v++) {
            sb.append(" WHEN ").append(match).append(" THEN ").append(v);
        }
        sb.append(" END, COUNT(*) FROM ").append(t.qualifiedName()).append(" WHERE ");
        anyOf(sb, columns, values, withNulls);
        // ORDER BY NULL: the groups need no sorting
        return sb.append(" GROUP BY 1 ORDER BY NULL FOR UPDATE").toString();
    }

    /** Deletes every copy of {@code values} row values of a keyless table, matched as in {@link #anyOf}. */
    public static String deleteAllCopies(TableSchema t, List<ColumnInfo> columns, int values, boolean withNulls) {
        StringBuilder sb = new StringBuilder(64 + values * columns.size() * 24);
        sb.append("DELETE FROM ").append(t.qualifiedName()).append(" WHERE ");
        anyOf(sb, columns, values, withNulls);
        return sb.toString();
    }

    /**
     * Rows equal to one of {@code values} row values, as {@link #deleteSome} matches one. Values
     * without a NULL cell: one row-constructor IN, {@code (`a`, CAST(`b` AS BINARY)) IN ((?,?),…)},
     * which the server finds through an index on a leading column and tests by binary search, where
     * an OR of the values tests every value against every row it reads. A NULL equals nothing in an
     * IN list: values holding one are matched {@code (`a`<=>? AND …) OR …}; so is a single value,
     * because MariaDB 10.11 turns an IN list of one row into a row comparison it finds by reading
     * the whole table.
     */
    private static void anyOf(StringBuilder sb, List<ColumnInfo> columns, int values, boolean withNulls) {
        if (withNulls || values == 1) {
            String match = match(columns);
            for (int v = 0; v < values; v++) {
                sb.append(v > 0 ? " OR " : "").append(match);
            }
            return;
        }
        StringBuilder row = new StringBuilder();
        StringBuilder placeholders = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            ColumnInfo c = columns.get(i);
            row.append(i > 0 ? "," : "");
            placeholders.append(i > 0 ? "," : "");
            if (comparesAsBytes(c)) {
                row.append("CAST(").append(Sql.quote(c.name())).append(" AS BINARY)");
                placeholders.append('?');
            } else {
                row.append(Sql.quote(c.name()));
                placeholders.append(value(c));
            }
        }
        boolean one = columns.size() == 1;
        sb.append(one ? "" : "(").append(row).append(one ? " IN (" : ") IN (");
        for (int v = 0; v < values; v++) {
            sb.append(v > 0 ? "," : "").append(one ? "" : "(").append(placeholders).append(one ? "" : ")");
        }
        sb.append(')');
    }

    /** {@code (`a`<=>? AND CAST(`b` AS BINARY)<=>?)}: one row value of a keyless table. */
    private static String match(List<ColumnInfo> columns) {
        StringBuilder sb = new StringBuilder("(");
        conditions(sb, columns, false);
        return sb.append(')').toString();
    }

    /**
     * Deletes {@code rows} rows by their lookup key: {@code `k` IN (?,…)} for a one-column key, else
     * {@code (`a`=? AND `b`=?) OR …}.
     */
    public static String deleteByKeys(TableSchema t, List<ColumnInfo> key, int rows) {
        StringBuilder sb = new StringBuilder(64 + rows * key.size() * 12);
        sb.append("DELETE FROM ").append(t.qualifiedName()).append(" WHERE ");
        anyKey(sb, key, rows);
        return sb.toString();
    }

    /** {@code `k` IN (?,…)} for a one-column key, else {@code (`a`=? AND `b`=?) OR …}: any of {@code rows} key values. */
    private static void anyKey(StringBuilder sb, List<ColumnInfo> key, int rows) {
        if (key.size() == 1) {
            sb.append(Sql.quote(key.get(0).name())).append(" IN (");
            for (int r = 0; r < rows; r++) {
                if (r > 0) {
                    sb.append(',');
                }
                sb.append(key(key.get(0)));
            }
            sb.append(')');
            return;
        }
        for (int r = 0; r < rows; r++) {
            if (r > 0) {
                sb.append(" OR ");
            }
            sb.append('(');
            for (int i = 0; i < key.size(); i++) {
                if (i > 0) {
                    sb.append(" AND ");
                }
                sb.append(Sql.quote(key.get(i).name())).append('=').append(key(key.get(i)));
            }
            sb.append(')');
        }
    }

    /**
     * Reads the entries of {@code values} values of one index and nothing else: {@code SELECT COUNT(*)
     * FROM t FORCE INDEX (`i`) WHERE `k` IN (?,…)}, or {@code (`a`=? AND `b`=?) OR …} for several
     * columns. Every column of a secondary index entry is in the index, so the server reads only that
     * index's pages (the clustered index's for PRIMARY): what read-ahead brings into the buffer pool.
     */
    public static String probe(TableSchema t, String index, List<ColumnInfo> columns, int values) {
        StringBuilder sb = new StringBuilder(64 + values * columns.size() * 12);
        sb.append("SELECT COUNT(*) FROM ").append(t.qualifiedName()).append(" FORCE INDEX (")
            .append("PRIMARY".equals(index) ? "PRIMARY" : Sql.quote(index)).append(") WHERE ");
        anyKey(sb, columns, values);
        return sb.toString();
    }

    private static void where(StringBuilder sb, List<ColumnInfo> where, boolean byKey) {
        sb.append(" WHERE ");
        conditions(sb, where, byKey);
        if (!byKey) {
            sb.append(" LIMIT 1");
        }
    }

    /** {@code `k`=? AND …} by key, else {@code `a`<=>? AND CAST(`b` AS BINARY)<=>? …} (no usable key). */
    private static void conditions(StringBuilder sb, List<ColumnInfo> where, boolean byKey) {
        for (int i = 0; i < where.size(); i++) {
            if (i > 0) {
                sb.append(" AND ");
            }
            ColumnInfo c = where.get(i);
            if (byKey) {
                sb.append(Sql.quote(c.name())).append('=').append(key(c));
            } else if (comparesAsBytes(c)) {
                sb.append("CAST(").append(Sql.quote(c.name())).append(" AS BINARY)<=>?");
            } else {
                sb.append(Sql.quote(c.name())).append("<=>").append(value(c));
            }
        }
    }

    /**
     * A value for a text column. Parameters arrive tagged with the connection's character set
     * (utf8mb4); bytes of a latin1, gbk … column are not valid utf8mb4 and the server would reject or
     * convert them. {@code CAST(? AS BINARY)} hands the bytes over as they are: assigning binary to a
     * text column copies them unchanged.
     */
    static String value(ColumnInfo c) {
        if ("set".equals(c.dataType())) {
            // The bit mask of a 64-member SET needs all 64 bits; a DECIMAL parameter would pass through
            // a double on its way into the column.
            return "CAST(? AS UNSIGNED)";
        }
        if (c.binaryLength() > 0) {
            return binaryPadded(c);
        }
        return c.textual() && !utf8mb4(c) ? "CAST(? AS BINARY)" : "?";
    }

    /** A {@code BINARY(n)} value with the trailing 0x00 bytes the binlog dropped (see {@link ColumnInfo#binaryLength}). */
    private static String binaryPadded(ColumnInfo c) {
        return "CAST(? AS BINARY(" + c.binaryLength() + "))";
    }

    /**
     * A key value: the bytes are read in the column's own character set and compared under its
     * collation, so the index is used and the row found is the one the collation says.
     */
    static String key(ColumnInfo c) {
        if ("bit".equals(c.dataType())) {
            // The bytes of a BIT value compare unequal to the column as a string, and as a number
            // they would be parsed as digits: read them as the unsigned integer they spell.
            return "CAST(CONV(HEX(?), 16, 10) AS UNSIGNED)";
        }
        if (c.binaryLength() > 0) {
            return binaryPadded(c);
        }
        if ("set".equals(c.dataType())) {
            return "CAST(? AS UNSIGNED)"; // the bit mask, as in value()
        }
        if (!c.textual() || utf8mb4(c)) {
            return "?";
        }
        return "CONVERT(CAST(? AS BINARY) USING " + c.charset() + ") COLLATE " + c.collation();
    }

    private static boolean utf8mb4(ColumnInfo c) {
        return "utf8mb4".equals(c.charset());
    }

    /**
     * Text, JSON, spatial and BIT values are matched byte for byte when there is no key (a BIT
     * column never equals the bytes of its own value compared as it is).
     */
    static boolean comparesAsBytes(ColumnInfo c) {
        if (c.textual()) {
            return true;
        }
        return switch (c.dataType()) {
            case "bit", "json", "geometry", "point", "linestring", "polygon", "multipoint", "multilinestring",
                 "multipolygon", "geometrycollection", "geomcollection" -> true;
            default -> false;
        };
    }
}
