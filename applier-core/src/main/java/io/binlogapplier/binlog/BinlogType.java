package io.binlogapplier.binlog;

/**
 * Column type codes as they appear in TABLE_MAP events ({@code enum_field_types} in MySQL's
 * {@code include/field_types.h}). For CHAR/BINARY, ENUM and SET the table map says
 * {@link #STRING} and hides the real type in the metadata; {@link RowImageDecoder} resolves it.
 */
public final class BinlogType {
    public static final int DECIMAL = 0;
    public static final int TINY = 1;
    public static final int SHORT = 2;
    public static final int LONG = 3;
    public static final int FLOAT = 4;
    public static final int DOUBLE = 5;
    public static final int NULL = 6;
    public static final int TIMESTAMP = 7;
    public static final int LONGLONG = 8;
    public static final int INT24 = 9;
    public static final int DATE = 10;
    public static final int TIME = 11;
    public static final int DATETIME = 12;
    public static final int YEAR = 13;
    public static final int NEWDATE = 14;
    public static final int VARCHAR = 15;
    public static final int BIT = 16;
    public static final int TIMESTAMP2 = 17;
    public static final int DATETIME2 = 18;
    public static final int TIME2 = 19;
    public static final int TYPED_ARRAY = 20;
    public static final int VECTOR = 242;
    public static final int INVALID = 243;
    public static final int BOOL = 244;
    public static final int JSON = 245;
    public static final int NEWDECIMAL = 246;
    public static final int ENUM = 247;
    public static final int SET = 248;
    public static final int TINY_BLOB = 249;
    public static final int MEDIUM_BLOB = 250;
    public static final int LONG_BLOB = 251;
    public static final int BLOB = 252;
    public static final int VAR_STRING = 253;
    public static final int STRING = 254;
    public static final int GEOMETRY = 255;

    private BinlogType() {
    }

    public static boolean isInteger(int type) {
        return type == TINY || type == SHORT || type == INT24 || type == LONG || type == LONGLONG;
    }

    /** Width in bytes of an integer type, for turning a signed read into its unsigned value. */
    public static int integerWidth(int type) {
        return switch (type) {
            case TINY -> 1;
            case SHORT -> 2;
            case INT24 -> 3;
            case LONG -> 4;
            case LONGLONG -> 8;
            default -> throw new IllegalArgumentException("not an integer type: " + type);
        };
    }

    public static String name(int type) {
        return switch (type) {
            case DECIMAL -> "DECIMAL(old)";
            case TINY -> "TINYINT";
            case SHORT -> "SMALLINT";
            case LONG -> "INT";
            case FLOAT -> "FLOAT";
            case DOUBLE -> "DOUBLE";
            case TIMESTAMP -> "TIMESTAMP(old)";
            case LONGLONG -> "BIGINT";
            case INT24 -> "MEDIUMINT";
            case DATE -> "DATE";
            case TIME -> "TIME(old)";
            case DATETIME -> "DATETIME(old)";
            case YEAR -> "YEAR";
            case VARCHAR -> "VARCHAR";
            case BIT -> "BIT";
            case TIMESTAMP2 -> "TIMESTAMP";
            case DATETIME2 -> "DATETIME";
            case TIME2 -> "TIME";
            case JSON -> "JSON";
            case NEWDECIMAL -> "DECIMAL";
            case ENUM -> "ENUM";
            case SET -> "SET";
            case BLOB, TINY_BLOB, MEDIUM_BLOB, LONG_BLOB -> "BLOB";
            case VAR_STRING -> "VAR_STRING";
            case STRING -> "CHAR";
            case GEOMETRY -> "GEOMETRY";
            case VECTOR -> "VECTOR";
            default -> "type " + type;
        };
    }
}
