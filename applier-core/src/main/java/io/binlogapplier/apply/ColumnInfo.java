package io.binlogapplier.apply;

/**
 * One column of a target table, from {@code information_schema.COLUMNS}.
 *
 * @param dataType lower-case DATA_TYPE, e.g. {@code int}, {@code varchar}
 * @param columnType lower-case COLUMN_TYPE, e.g. {@code int(10) unsigned}, {@code enum('a','b')}
 * @param charset CHARACTER_SET_NAME, null for non-text columns
 * @param collation COLLATION_NAME, null for non-text columns
 * @param generated a VIRTUAL or STORED generated column: never written
 * @param onUpdateDefault the column has an {@code ON UPDATE} default (e.g. {@code ON UPDATE
 *     CURRENT_TIMESTAMP}): the server may set it in a row change that leaves it out
 */
public record ColumnInfo(String name, int ordinal, String dataType, String columnType, String charset,
                         String collation, boolean nullable, boolean generated, boolean onUpdateDefault) {

    /** A column without an {@code ON UPDATE} default. */
    public ColumnInfo(String name, int ordinal, String dataType, String columnType, String charset,
                      String collation, boolean nullable, boolean generated) {
        this(name, ordinal, dataType, columnType, charset, collation, nullable, generated, false);
    }

    public boolean unsigned() {
        return columnType.contains("unsigned");
    }

    /** Compares as text under a collation (so a key lookup must honour it). */
    public boolean textual() {
        return charset != null && !"binary".equals(charset);
    }

    /** A case- or accent-insensitive collation: two different byte strings may be the same key. */
    public boolean insensitiveCollation() {
        return collation != null && (collation.contains("_ci") || collation.contains("_ai"));
    }
}
