package io.binlogapplier.apply;

import java.util.List;

/**
 * A target table as binlog-applier needs to know it to render row changes: columns in order,
 * the key used to find rows, the unique keys (for write sets), engine and triggers. Immutable.
 *
 * @param primaryKey column positions (0-based) of the PRIMARY KEY, empty when the table has none
 * @param uniqueKeys every PRIMARY or UNIQUE key without prefix parts, as column positions
 * @param lookupKey the key rows are found by: the primary key, else a unique key whose columns are
 *     all NOT NULL; empty when there is none (rows are then matched on the whole before image)
 * @param transactional InnoDB (or another engine that can roll back)
 * @param hasTriggers the target fires triggers on this table
 * @param foreignKeys this table's foreign keys (it is the child)
 * @param referenced some foreign key references this table (it is a parent)
 * @param uniqueIndexCount every PRIMARY or UNIQUE index the target enforces, those {@code uniqueKeys}
 *     leaves out (prefix, functional, long hash keys) included
 * @param indexes every B-tree index, unique or not, whose parts are whole columns (PRIMARY first): the
 *     index entries a row change reads and writes, which read-ahead fetches before the change
 * @param systemVersioned MariaDB {@code WITH SYSTEM VERSIONING}: the server keeps each row's history, with
 *     times ({@code ROW START}, {@code ROW END}) a source's rows event carries and SQL cannot set
 * @param longUnique a UNIQUE key the server enforces through a hidden hash column ({@code USING HASH}, e.g.
 *     on a TEXT column): a column the source's rows carry and {@code information_schema} does not show
 */
public record TableSchema(String schema, String table, List<ColumnInfo> columns, List<Integer> primaryKey,
                          List<KeyInfo> uniqueKeys, List<Integer> lookupKey, String engine, boolean transactional,
                          boolean hasTriggers, List<ForeignKey> foreignKeys, boolean referenced,
                          int uniqueIndexCount, List<KeyInfo> indexes, boolean systemVersioned, boolean longUnique) {

    /** Neither system-versioned nor with a long unique key. */
    public TableSchema(String schema, String table, List<ColumnInfo> columns, List<Integer> primaryKey,
                       List<KeyInfo> uniqueKeys, List<Integer> lookupKey, String engine, boolean transactional,
                       boolean hasTriggers, List<ForeignKey> foreignKeys, boolean referenced,
                       int uniqueIndexCount, List<KeyInfo> indexes) {
        this(schema, table, columns, primaryKey, uniqueKeys, lookupKey, engine, transactional, hasTriggers,
            foreignKeys, referenced, uniqueIndexCount, indexes, false, false);
    }

    /** A table whose indexes are its usable unique keys. */
    public TableSchema(String schema, String table, List<ColumnInfo> columns, List<Integer> primaryKey,
                       List<KeyInfo> uniqueKeys, List<Integer> lookupKey, String engine, boolean transactional,
                       boolean hasTriggers, List<ForeignKey> foreignKeys, boolean referenced, int uniqueIndexCount) {
        this(schema, table, columns, primaryKey, uniqueKeys, lookupKey, engine, transactional, hasTriggers,
            foreignKeys, referenced, uniqueIndexCount, uniqueKeys);
    }

    /** A table whose unique indexes are exactly its usable unique keys. */
    public TableSchema(String schema, String table, List<ColumnInfo> columns, List<Integer> primaryKey,
                       List<KeyInfo> uniqueKeys, List<Integer> lookupKey, String engine, boolean transactional,
                       boolean hasTriggers, List<ForeignKey> foreignKeys, boolean referenced) {
        this(schema, table, columns, primaryKey, uniqueKeys, lookupKey, engine, transactional, hasTriggers,
            foreignKeys, referenced, uniqueKeys.size());
    }

    /**
     * The lookup key is the only key the target enforces uniqueness of: inserting a row can collide
     * with one row only, the one with its lookup key, so an {@code INSERT … ON DUPLICATE KEY UPDATE}
     * of a row that exists updates exactly that row.
     */
    public boolean lookupKeyIsTheOnlyUniqueKey() {
        return !lookupKey.isEmpty() && uniqueIndexCount == 1;
    }

    /** A unique key (PRIMARY included) by name and column positions. */
    public record KeyInfo(String name, List<Integer> columns) {
    }

    /**
     * A foreign key of this table: its column positions and the parent table columns they reference.
     */
    public record ForeignKey(String name, List<Integer> columns, String parentSchema, String parentTable,
                             List<String> parentColumns) {
    }

    /**
     * Why this table's row changes must be applied in source order rather than as their net effect
     * per key, or null when the net effect is provably the same (for a table without a lookup key,
     * the net effect per distinct row value; see {@code KeylessNetEffect}): a non-transactional table, one with triggers on the target (they fire per
     * statement row), and a foreign key's parent or child (cascades and checks must run in the
     * source's order).
     */
    public String orderedApplyReason() {
        if (!transactional) {
            return "non-transactional";
        }
        if (hasTriggers) {
            return "triggers on the target";
        }
        if (!foreignKeys.isEmpty()) {
            return "child of a foreign key";
        }
        if (referenced) {
            return "parent of a foreign key";
        }
        return null;
    }

    /**
     * Why this table's row changes must go as BINLOG statements, whatever the apply method, or null when
     * SQL applies them as well: triggers on the target (SQL would fire them for changes the source's
     * triggers already made), system versioning (SQL would write the target's own times into the rows'
     * history, and cannot name its hidden period columns), a long unique key (its hidden hash column is in
     * the source's rows but not in {@code information_schema}).
     */
    public String binlogOnlyReason() {
        if (hasTriggers) {
            return "has triggers on the target";
        }
        if (systemVersioned) {
            return "is system-versioned";
        }
        if (longUnique) {
            return "has a long UNIQUE key (USING HASH)";
        }
        return null;
    }

    /** The source's rows of this table carry columns {@code information_schema} does not show (after every visible one). */
    public boolean hiddenColumns() {
        return systemVersioned || longUnique;
    }

    /**
     * A foreign key links this table to another (it is a child or a parent): a change to it may
     * check or cascade to rows of other tables.
     */
    public boolean linkedByForeignKeys() {
        return !foreignKeys.isEmpty() || referenced;
    }

    public String qualifiedName() {
        return Sql.quote(schema) + "." + Sql.quote(table);
    }

    @Override
    public String toString() {
        return "`" + schema + "`.`" + table + "`";
    }
}
