package io.binlogapplier.apply;

import io.binlogapplier.binlog.BinlogType;
import io.binlogapplier.binlog.JsonText;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Writes one decoded cell as an SQL literal that the server reads as the value {@link ValueBinder}
 * would bind, so a statement sent as text (several in one round trip, see {@link StatementBatch})
 * changes exactly what the prepared statement would. Pure.
 *
 * <ul>
 *   <li>integers in decimal, unsigned when the column is UNSIGNED; a SET mask unsigned;</li>
 *   <li>DOUBLE as the shortest decimal that reads back as the same double, always with an exponent
 *       ({@code 1.5E0}) so the server parses it as a double, not as a DECIMAL it then rounds; FLOAT
 *       as the double it widens to exactly, which narrows back to the same float;</li>
 *   <li>DECIMAL in plain decimal notation;</li>
 *   <li>raw bytes (strings, blobs, BIT, spatial) as a hexadecimal literal, {@code X'…'}: a binary
 *       string, as a bound byte array is;</li>
 *   <li>text (temporal literals, JSON) quoted when it is only letters, digits and {@code -:.+ }
 *       (every temporal literal), else as {@code _utf8mb4 X'…'}, the connection's character set, as
 *       a bound string: no escaping that a session's sql_mode could read differently.</li>
 * </ul>
 */
final class SqlLiteral {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private SqlLiteral() {
    }

    /** Appends {@code value} (a cell of a column of {@code binlogType}) as a literal. */
    static void append(StringBuilder sb, Object value, int binlogType, boolean unsigned) {
        if (value == null) {
            sb.append("NULL");
        } else if (value instanceof Long l) {
            if (BinlogType.isInteger(binlogType)) {
                sb.append(unsigned ? Long.toUnsignedString(ValueBinder.unsignedValue(l, binlogType)) : Long.toString(l));
            } else {
                sb.append(Long.toUnsignedString(l)); // a SET mask (the SQL casts it AS UNSIGNED)
            }
        } else if (value instanceof byte[] b) {
            hex(sb.append("X'"), b).append('\'');
        } else if (value instanceof String s) {
            text(sb, s);
        } else if (value instanceof Integer i) {
            sb.append(i.intValue());
        } else if (value instanceof BigDecimal d) {
            sb.append(d.toPlainString());
        } else if (value instanceof Double d) {
            real(sb, d);
        } else if (value instanceof Float f) {
            real(sb, f.doubleValue());
        } else if (value instanceof JsonText j) {
            text(sb, j.text());
        } else {
            throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as a literal");
        }
    }

    private static void real(StringBuilder sb, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("no SQL literal for " + d);
        }
        String s = Double.toString(d);
        sb.append(s);
        if (s.indexOf('E') < 0) {
            sb.append("E0");
        }
    }

    private static void text(StringBuilder sb, String s) {
        if (plain(s)) {
            sb.append('\'').append(s).append('\'');
        } else {
            hex(sb.append("_utf8mb4 X'"), s.getBytes(StandardCharsets.UTF_8)).append('\'');
        }
    }

    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
                || c == '-' || c == ':' || c == '.' || c == ' ' || c == '+';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static StringBuilder hex(StringBuilder sb, byte[] b) {
        sb.ensureCapacity(sb.length() + 2 * b.length + 1);
        for (byte x : b) {
            sb.append(HEX[(x >> 4) & 0xF]).append(HEX[x & 0xF]);
        }
        return sb;
    }

    /** Characters a literal of {@code value} takes, roughly (for batch size limits). */
    static long approxLength(Object value) {
        if (value instanceof byte[] b) {
            return 2L * b.length + 3;
        }
        if (value instanceof String s) {
            return 2L * s.length() + 12;
        }
        if (value instanceof JsonText j) {
            return 2L * j.text().length() + 12;
        }
        return 24;
    }
}
