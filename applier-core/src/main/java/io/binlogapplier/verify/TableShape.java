package io.binlogapplier.verify;

import java.util.List;

/**
 * What verify needs to know about one applied table: its names on both sides, its columns (as the
 * source has them) and the key that orders its chunks. Immutable.
 *
 * @param sourceSchema the schema on the source
 * @param table the table name, the same on both sides ({@code filter.rename} renames schemas only)
 * @param targetSchema the schema on the target, after {@code filter.rename}
 * @param columns every column, in the source's order
 * @param key the columns of the primary key, or of a unique key over NOT NULL columns; empty when the
 *     table has neither, and is then compared as one chunk
 */
public record TableShape(String sourceSchema, String table, String targetSchema, List<Column> columns,
                         List<String> key) {

    /**
     * A column; {@code character} when it holds text in some character set (compared after conversion),
     * {@code large} when its values may be long (BLOB, TEXT, JSON, spatial: compared by their MD5).
     */
    public record Column(String name, boolean character, boolean large) {
        public Column(String name, boolean character) {
            this(name, character, false);
        }
    }

    public TableShape {
        columns = List.copyOf(columns);
        key = List.copyOf(key);
    }

    public boolean chunked() {
        return !key.isEmpty();
    }

    /** {@code schema.table} as the source names it. */
    public String sourceName() {
        return sourceSchema + "." + table;
    }

    /** {@code schema.table} as the target names it. */
    public String targetName() {
        return targetSchema + "." + table;
    }
}
