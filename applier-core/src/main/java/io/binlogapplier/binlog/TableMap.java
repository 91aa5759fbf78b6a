package io.binlogapplier.binlog;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * What a TABLE_MAP event says about a table: its id in this binlog, name, and per column the real
 * binlog type (CHAR, ENUM and SET already resolved from the STRING type's metadata), the type's
 * metadata word and, for CHAR/ENUM/SET, the length in bytes. Optional metadata
 * ({@code binlog_row_metadata=FULL}) adds column names and signedness; both are null when absent.
 * {@code body} is the event's raw body, kept only when rows are applied as BINLOG statements.
 * Immutable (arrays are never modified after construction).
 */
public record TableMap(
    long tableId,
    String schema,
    String table,
    int[] types,
    int[] metas,
    int[] lengths,
    BitSet nullable,
    List<String> columnNames,
    boolean[] unsigned,
    byte[] body
) {
    public TableMap {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        if (types.length != metas.length || types.length != lengths.length) {
            throw new IllegalArgumentException("column arrays differ in length");
        }
    }

    /**
     * This table map under another schema name (filter.rename): the raw body, if kept, names the
     * new schema too, so BINLOG statements apply its rows there.
     */
    public TableMap withSchema(String newSchema) {
        return new TableMap(tableId, newSchema, table, types, metas, lengths, nullable, columnNames, unsigned,
            body == null ? null : EventEncoder.tableMapWithSchema(body, newSchema));
    }

    public int columnCount() {
        return types.length;
    }

    /** Resolves the real type of a STRING column from its metadata, as MySQL's log_event.cc does. */
    static int[] resolveStringType(int type, int meta) {
        if (type != BinlogType.STRING) {
            return new int[] {type, 0};
        }
        if (meta >= 256) {
            int meta0 = meta >> 8;
            int meta1 = meta & 0xFF;
            if ((meta0 & 0x30) != 0x30) {
                // CHAR longer than 255 bytes: the high length bits are stored, inverted, in meta0.
                return new int[] {meta0 | 0x30, meta1 | (((meta0 & 0x30) ^ 0x30) << 4)};
            }
            if (meta0 == BinlogType.ENUM || meta0 == BinlogType.SET) {
                return new int[] {meta0, meta1};
            }
            return new int[] {BinlogType.STRING, meta1};
        }
        return new int[] {BinlogType.STRING, meta};
    }

    @Override
    public boolean equals(Object o) {
        return o == this;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return "`" + schema + "`.`" + table + "` (id " + tableId + ", " + types.length + " columns)";
    }
}
