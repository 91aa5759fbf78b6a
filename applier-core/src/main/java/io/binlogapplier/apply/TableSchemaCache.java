package io.binlogapplier.apply;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Target table metadata, loaded on first use and dropped after every DDL. Thread-safe: shared by
 * the scheduler and all workers; each caller loads through its own connection.
 */
public final class TableSchemaCache {
    private final ConcurrentHashMap<String, TableSchema> tables = new ConcurrentHashMap<>();

    public TableSchema get(String schema, String table, Connection c) throws SQLException {
        String key = schema + "\u0000" + table;
        TableSchema t = tables.get(key);
        if (t == null) {
            t = TableSchemaLoader.load(c, schema, table);
            TableSchema raced = tables.putIfAbsent(key, t);
            if (raced != null) {
                t = raced;
            }
        }
        return t;
    }

    /** The table's metadata if it is loaded now, else null; never loads (so never races a DDL). */
    public TableSchema cached(String schema, String table) {
        return tables.get(schema + "\u0000" + table);
    }

    /** Forget everything: called once a DDL has run on the target (before any later unit starts). */
    public void invalidateAll() {
        tables.clear();
    }
}
