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
 * @param autoIncrement the table's {@code AUTO_INCREMENT} column
 */
public record ColumnInfo(String name, int ordinal, String dataType, String columnType, String charset,
                         String collation, boolean nullable, boolean generated, boolean onUpdateDefault,
                         boolean autoIncrement) {

    /** A column that is not {@code AUTO_INCREMENT}. */
    public ColumnInfo(String name, int ordinal, String dataType, String columnType, String charset,
                      String collation, boolean nullable, boolean generated, boolean onUpdateDefault) {
        this(name, ordinal, dataType, columnType, charset, collation, nullable, generated, onUpdateDefault, false);
    }

    /** A column without an {@code ON UPDATE} default. */
    public ColumnInfo(String name, int ordinal, String dataType, String columnType, String charset,
                      String collation, boolean nullable, boolean generated) {
        this(name, ordinal, dataType, columnType, charset, collation, nullable, generated, false);
    }

    public boolean unsigned() {
        return columnType.contains("unsigned");
    }

    /**
     * n for a {@code BINARY(n)} column (16 for MariaDB's INET6 and UUID, 4 for INET4), else 0. The binlog drops a BINARY value's trailing 0x00
     * bytes (as it drops a CHAR value's trailing spaces), the column keeps them, and bytes compare
     * with their length: a value from the binlog must be padded again to find its row.
     */
    public int binaryLength() {
        switch (dataType) {
            case "inet6", "uuid" -> {
                return 16; // MariaDB's fixed-size binary types, logged as BINARY(16) is
            }
            case "inet4" -> {
                return 4;
            }
            case "binary" -> { }
            default -> {
                return 0;
            }
        }
        int open = columnType.indexOf('(');
        int close = columnType.indexOf(')', open + 1);
        if (open < 0 || close < 0) {
            return 1; // BINARY alone is BINARY(1)
        }
        return Integer.parseInt(columnType.substring(open + 1, close).trim());
    }

    /**
     * Compares as text under a collation (so a key lookup must honour it). Not ENUM and SET, though
     * they have a character set: their values travel as the member's index and the members' bit mask,
     * which the server reads as those only when they arrive as numbers (as text, '1' is first looked
     * up as a member's name).
     */
    public boolean textual() {
        return charset != null && !"binary".equals(charset) && !"enum".equals(dataType) && !"set".equals(dataType);
    }

    /** A case- or accent-insensitive collation: two different byte strings may be the same key. */
    public boolean insensitiveCollation() {
        return collation != null && (collation.contains("_ci") || collation.contains("_ai"));
    }
}
