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
 */
public record TableSchema(String schema, String table, List<ColumnInfo> columns, List<Integer> primaryKey,
                          List<KeyInfo> uniqueKeys, List<Integer> lookupKey, String engine, boolean transactional,
                          boolean hasTriggers, List<ForeignKey> foreignKeys) {

    /** A unique key (PRIMARY included) by name and column positions. */
    public record KeyInfo(String name, List<Integer> columns) {
    }

    /**
     * A foreign key of this table: its column positions and the parent table columns they reference.
     */
    public record ForeignKey(String name, List<Integer> columns, String parentSchema, String parentTable,
                             List<String> parentColumns) {
    }

    public String qualifiedName() {
        return Sql.quote(schema) + "." + Sql.quote(table);
    }

    @Override
    public String toString() {
        return "`" + schema + "`.`" + table + "`";
    }
}
