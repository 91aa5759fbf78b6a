package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads a table's {@link TableSchema} from the target's {@code information_schema}. */
final class TableSchemaLoader {
    private static final String COLUMNS = "SELECT COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, COLUMN_TYPE,"
        + " CHARACTER_SET_NAME, COLLATION_NAME, IS_NULLABLE, EXTRA FROM information_schema.COLUMNS"
        + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";
    private static final String KEYS = "SELECT INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, SUB_PART, INDEX_TYPE"
        + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
        + " ORDER BY INDEX_NAME = 'PRIMARY' DESC, INDEX_NAME, SEQ_IN_INDEX";
    private static final String TABLE = "SELECT ENGINE, TABLE_TYPE FROM information_schema.TABLES"
        + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?";
    private static final String FOREIGN_KEYS = "SELECT CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_SCHEMA,"
        + " REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE"
        + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND REFERENCED_TABLE_NAME IS NOT NULL"
        + " ORDER BY CONSTRAINT_NAME, ORDINAL_POSITION";
    private static final String TRIGGERS = "SELECT COUNT(*) FROM information_schema.TRIGGERS"
        + " WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ?";

    /**
     * Every table some foreign key references, with the tables whose keys reference it, on the whole
     * server. The server can narrow KEY_COLUMN_USAGE to one table only by the child's TABLE_SCHEMA and
     * TABLE_NAME; a condition on the parent's (REFERENCED_…) makes it open every table of every schema,
     * about 0.1 s per 3,000 tables here. So it is read once for all tables ({@link TableSchemaCache}),
     * not once per table.
     */
    static final String REFERENCED_TABLES = "SELECT DISTINCT REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME,"
        + " TABLE_SCHEMA, TABLE_NAME FROM information_schema.KEY_COLUMN_USAGE WHERE REFERENCED_TABLE_NAME IS NOT NULL";
    /**
     * The same pairs from InnoDB's own dictionary, parent and child as {@code schema/table}: read
     * without opening a table, so its cost follows the number of foreign keys, not of tables (3,000
     * tables made {@link #REFERENCED_TABLES} cost about 47 ms after every DDL). MariaDB and MySQL 5.7,
     * then MySQL 8; both need the PROCESS privilege.
     */
    static final String[] DICTIONARY_FOREIGN_KEYS = {
        "SELECT DISTINCT REF_NAME, FOR_NAME FROM information_schema.INNODB_SYS_FOREIGN",
        "SELECT DISTINCT REF_NAME, FOR_NAME FROM information_schema.INNODB_FOREIGN"};

    /** Whether some foreign key references a table (it is a parent). */
    @FunctionalInterface
    interface ReferencedTables {
        boolean referenced(Connection c, String schema, String table) throws SQLException;
    }

    private TableSchemaLoader() {
    }

    /**
     * Loads the table, or fails with TARGET_SCHEMA_MISMATCH when the target has no such table.
     *
     * @param parents whether a foreign key references the table
     */
    static TableSchema load(Connection c, String schema, String table, ReferencedTables parents) throws SQLException {
        String engine = null;
        boolean versioned = false;
        try (PreparedStatement ps = c.prepareStatement(TABLE)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    engine = rs.getString(1);
                    versioned = "SYSTEM VERSIONED".equalsIgnoreCase(rs.getString(2));
                    if (!"BASE TABLE".equalsIgnoreCase(rs.getString(2))) {
                        engine = engine == null ? rs.getString(2) : engine;
                    }
                }
            }
        }
        List<ColumnInfo> columns = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(COLUMNS)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                int i = 0;
                while (rs.next()) {
                    String extra = lower(rs.getString(8));
                    boolean generated = extra.contains("virtual generated") || extra.contains("stored generated")
                        || extra.contains("persistent generated");
                    columns.add(new ColumnInfo(rs.getString(1), i++, lower(rs.getString(3)), lower(rs.getString(4)),
                        rs.getString(5), rs.getString(6), "YES".equals(rs.getString(7)), generated,
                        extra.contains("on update"), extra.contains("auto_increment")));
                }
            }
        }
        if (columns.isEmpty()) {
            throw new ApplierException(ExitCode.TARGET_SCHEMA_MISMATCH, "table `" + schema + "`.`" + table
                + "` does not exist on the target: create it there (same definition as on the source) or"
                + " exclude it with a filter, then restart");
        }
        Map<String, Integer> byName = byName(columns);
        List<KeyPart> parts = new ArrayList<>();
        boolean hashUnique = false;
        try (PreparedStatement ps = c.prepareStatement(KEYS)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // A unique HASH index outside MEMORY (whose indexes are hash tables) is a long unique key:
                    // the server keeps a hidden hash column for it, which the source's rows carry.
                    hashUnique |= rs.getInt(2) == 0 && "HASH".equalsIgnoreCase(rs.getString(6))
                        && !"MEMORY".equalsIgnoreCase(engine) && !"HEAP".equalsIgnoreCase(engine);
                    parts.add(new KeyPart(rs.getString(1), rs.getInt(2) == 0, rs.getString(4), rs.getObject(5) != null,
                        "BTREE".equalsIgnoreCase(rs.getString(6))));
                }
            }
        }
        Keys k = keys(parts, columns);
        List<TableSchema.KeyInfo> unique = k.unique();
        List<Integer> primary = k.primary();
        List<Integer> lookup = k.lookup();
        boolean triggers;
        try (PreparedStatement ps = c.prepareStatement(TRIGGERS)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                triggers = rs.next() && rs.getInt(1) > 0;
            }
        }
        List<TableSchema.ForeignKey> foreign = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(FOREIGN_KEYS)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                String name = null;
                List<Integer> cols = new ArrayList<>();
                List<String> parentCols = new ArrayList<>();
                String ps1 = null;
                String pt = null;
                while (rs.next()) {
                    if (name != null && !name.equals(rs.getString(1))) {
                        foreign.add(new TableSchema.ForeignKey(name, List.copyOf(cols), ps1, pt, List.copyOf(parentCols)));
                        cols.clear();
                        parentCols.clear();
                    }
                    name = rs.getString(1);
                    ps1 = rs.getString(3);
                    pt = rs.getString(4);
                    Integer col = byName.get(rs.getString(2).toLowerCase(Locale.ROOT));
                    cols.add(col == null ? -1 : col);
                    parentCols.add(rs.getString(5));
                }
                if (name != null) {
                    foreign.add(new TableSchema.ForeignKey(name, List.copyOf(cols), ps1, pt, List.copyOf(parentCols)));
                }
            }
        }
        boolean referenced = parents.referenced(c, schema, table);
        String e = engine == null ? "" : engine;
        boolean transactional = e.equalsIgnoreCase("InnoDB") || e.equalsIgnoreCase("TokuDB")
            || e.equalsIgnoreCase("RocksDB") || e.equalsIgnoreCase("ndbcluster");
        return new TableSchema(schema, table, List.copyOf(columns), primary, List.copyOf(unique), lookup, e,
            transactional, triggers, List.copyOf(foreign), referenced, uniqueIndexCount(parts), indexes(parts, columns),
            versioned, hashUnique);
    }

    /**
     * The tables some foreign key references ({@link #REFERENCED_TABLES}), as {@link #parentKey} of
     * each, with the tables whose foreign keys reference it (its children).
     */
    static Map<String, List<TableSchemaCache.TableName>> referencedTables(Connection c) throws SQLException {
        Map<String, List<TableSchemaCache.TableName>> parents = fromDictionary(c);
        return parents != null ? parents : fromKeyColumnUsage(c);
    }

    /**
     * {@link #referencedTables} from {@link #DICTIONARY_FOREIGN_KEYS}, or null when the dictionary cannot
     * be read (no privilege, no such view) or names a table in its encoded form (a character other than
     * an ASCII letter, digit or _), which {@link #fromKeyColumnUsage} then reads by its real name.
     */
    static Map<String, List<TableSchemaCache.TableName>> fromDictionary(Connection c) {
        for (String query : DICTIONARY_FOREIGN_KEYS) {
            Map<String, List<TableSchemaCache.TableName>> parents = new HashMap<>();
            try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
                while (rs.next()) {
                    String ref = rs.getString(1);
                    String child = rs.getString(2);
                    if (intermediate(ref) || intermediate(child)) {
                        continue; // the copy an ALTER TABLE in progress (or one a crash left) works on
                    }
                    TableSchemaCache.TableName parent = dictionaryName(ref);
                    TableSchemaCache.TableName of = dictionaryName(child);
                    if (parent == null || of == null) {
                        return null;
                    }
                    // DISTINCT: each child once per parent, however many keys link them
                    parents.computeIfAbsent(parentKey(parent.schema(), parent.table()), k -> new ArrayList<>())
                        .add(of);
                }
                return parents;
            } catch (SQLException e) {
                // no PROCESS privilege, or not this server's view: the next query, then KEY_COLUMN_USAGE
            }
        }
        return null;
    }

    /**
     * A dictionary name ({@code schema/table}) as a table name, or null when it is not plain ASCII letters,
     * digits and _ on both sides of one slash (the dictionary encodes every other character as
     * {@code @XXXX}). Pure.
     */
    static TableSchemaCache.TableName dictionaryName(String name) {
        if (name == null) {
            return null;
        }
        int slash = name.indexOf('/');
        if (slash <= 0 || slash == name.length() - 1 || name.indexOf('/', slash + 1) >= 0) {
            return null;
        }
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            if (i != slash && !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_')) {
                return null;
            }
        }
        return new TableSchemaCache.TableName(name.substring(0, slash), name.substring(slash + 1));
    }

    /** True for a table ALTER TABLE works on ({@code schema/#sql…}): no replicated change names it. */
    private static boolean intermediate(String name) {
        return name != null && name.indexOf('/') >= 0 && name.startsWith("#sql", name.indexOf('/') + 1);
    }

    /** {@link #referencedTables} from {@link #REFERENCED_TABLES}: opens every table on the server. */
    static Map<String, List<TableSchemaCache.TableName>> fromKeyColumnUsage(Connection c) throws SQLException {
        Map<String, List<TableSchemaCache.TableName>> parents = new HashMap<>();
        try (java.sql.Statement s = c.createStatement(); ResultSet rs = s.executeQuery(REFERENCED_TABLES)) {
            while (rs.next()) {
                // DISTINCT: each child once per parent, however many columns or keys link them
                parents.computeIfAbsent(parentKey(rs.getString(1), rs.getString(2)), k -> new ArrayList<>())
                    .add(new TableSchemaCache.TableName(rs.getString(3), rs.getString(4)));
            }
        }
        return parents;
    }

    /**
     * A table's name as {@link #referencedTables} holds it: lower case, so a name that differs only in
     * case counts as referenced too, as the per-table count this replaces did (information_schema
     * compares those columns without regard to case). Taking a table for a parent that is not one only
     * orders its changes; the reverse would not be safe.
     */
    static String parentKey(String schema, String table) {
        return (schema == null ? "" : schema.toLowerCase(Locale.ROOT)) + '\u0000'
            + (table == null ? "" : table.toLowerCase(Locale.ROOT));
    }

    /**
     * One row of {@code information_schema.STATISTICS}: a key part. {@code column} is NULL for a
     * MySQL 8.0.13+ functional key part ({@code UNIQUE KEY ((lower(email)))}), whose expression is in
     * {@code STATISTICS.EXPRESSION} instead.
     */
    record KeyPart(String index, boolean unique, String column, boolean prefix, boolean btree) {
        KeyPart(String index, boolean unique, String column, boolean prefix) {
            this(index, unique, column, prefix, true);
        }
    }

    /** The unique keys, primary key and lookup key {@link TableSchema} documents. */
    record Keys(List<TableSchema.KeyInfo> unique, List<Integer> primary, List<Integer> lookup) {
    }

    /**
     * Picks the usable unique keys from key parts in STATISTICS order (PRIMARY first). A key with a
     * prefix part, a part naming no known column or a functional part cannot find a row by column
     * values, so it is neither a unique key for write sets nor the lookup key. Pure.
     */
    static Keys keys(List<KeyPart> parts, List<ColumnInfo> columns) {
        Map<String, Integer> byName = byName(columns);
        Map<String, List<Integer>> keys = new LinkedHashMap<>();
        Map<String, Boolean> usable = new HashMap<>();
        for (KeyPart part : parts) {
            if (!part.unique()) {
                continue;
            }
            String name = part.index();
            // A functional part (COLUMN_NAME NULL) has no column to find a row by: the key is unusable.
            Integer col = part.column() == null ? null : byName.get(part.column().toLowerCase(Locale.ROOT));
            keys.computeIfAbsent(name, x -> new ArrayList<>());
            boolean ok = col != null && !part.prefix();
            usable.merge(name, ok, Boolean::logicalAnd);
            if (col != null) {
                keys.get(name).add(col);
            }
        }
        List<TableSchema.KeyInfo> unique = new ArrayList<>();
        List<Integer> primary = List.of();
        List<Integer> lookup = List.of();
        for (Map.Entry<String, List<Integer>> e : keys.entrySet()) {
            if (!usable.get(e.getKey())) {
                continue;
            }
            List<Integer> cols = List.copyOf(e.getValue());
            unique.add(new TableSchema.KeyInfo(e.getKey(), cols));
            if (e.getKey().equals("PRIMARY")) {
                primary = cols;
                lookup = cols;
            } else if (lookup.isEmpty() && cols.stream().noneMatch(i -> columns.get(i).nullable())) {
                lookup = cols;
            }
        }
        return new Keys(List.copyOf(unique), primary, lookup);
    }

    /**
     * Every B-tree index whose parts are all whole, known columns, unique or not, in STATISTICS order
     * (PRIMARY first): what read-ahead may look values up in. A FULLTEXT, SPATIAL or hash index, or one
     * with a prefix or functional part, cannot be searched for a column value. Pure.
     */
    static List<TableSchema.KeyInfo> indexes(List<KeyPart> parts, List<ColumnInfo> columns) {
        Map<String, Integer> byName = byName(columns);
        Map<String, List<Integer>> cols = new LinkedHashMap<>();
        Map<String, Boolean> usable = new HashMap<>();
        for (KeyPart part : parts) {
            Integer col = part.column() == null ? null : byName.get(part.column().toLowerCase(Locale.ROOT));
            cols.computeIfAbsent(part.index(), x -> new ArrayList<>());
            usable.merge(part.index(), col != null && !part.prefix() && part.btree(), Boolean::logicalAnd);
            if (col != null) {
                cols.get(part.index()).add(col);
            }
        }
        List<TableSchema.KeyInfo> out = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : cols.entrySet()) {
            if (usable.get(e.getKey())) {
                out.add(new TableSchema.KeyInfo(e.getKey(), List.copyOf(e.getValue())));
            }
        }
        return List.copyOf(out);
    }

    /** Every unique index the target enforces, usable for lookups or not (prefix, functional, long hash keys). Pure. */
    static int uniqueIndexCount(List<KeyPart> parts) {
        return (int) parts.stream().filter(KeyPart::unique).map(KeyPart::index).distinct().count();
    }

    /** Column positions by lower-case name. */
    private static Map<String, Integer> byName(List<ColumnInfo> columns) {
        Map<String, Integer> byName = new HashMap<>();
        for (ColumnInfo col : columns) {
            byName.put(col.name().toLowerCase(Locale.ROOT), col.ordinal());
        }
        return byName;
    }

    private static String lower(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT);
    }
}
