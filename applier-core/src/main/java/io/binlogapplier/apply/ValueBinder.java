package io.binlogapplier.apply;

import io.binlogapplier.binlog.BinlogType;
import io.binlogapplier.binlog.JsonText;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

/**
 * Binds one decoded cell as a prepared-statement parameter, exactly:
 * integers as numbers (made unsigned when the column is UNSIGNED), FLOAT/DOUBLE in their binary
 * form, DECIMAL as decimal text, temporal values as literals (sessions run at UTC), strings and
 * blobs as their raw bytes (the server assigns bytes to a text column unchanged), ENUM as its index
 * and SET as its bit mask.
 */
public final class ValueBinder {
    /** Bytes above which a value is streamed (COM_STMT_SEND_LONG_DATA) rather than inlined. */
    static final int LONG_DATA_BYTES = 1 << 20;

    private ValueBinder() {
    }

    public static void bind(PreparedStatement ps, int index, Object value, int binlogType, boolean unsigned)
        throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.NULL);
        } else if (value instanceof Long l) {
            if (BinlogType.isInteger(binlogType)) {
                bindInteger(ps, index, l, binlogType, unsigned);
            } else if (l < 0) {
                // SET with its 64th member: the mask is unsigned (the SQL casts it with CAST(? AS UNSIGNED)).
                ps.setString(index, Long.toUnsignedString(l));
            } else {
                ps.setLong(index, l);
            }
        } else if (value instanceof byte[] b) {
            if (b.length > LONG_DATA_BYTES) {
                ps.setBinaryStream(index, new ByteArrayInputStream(b), b.length);
            } else {
                ps.setBytes(index, b);
            }
        } else if (value instanceof String s) {
            ps.setString(index, s);
        } else if (value instanceof Integer i) {
            ps.setInt(index, i);
        } else if (value instanceof BigDecimal d) {
            ps.setBigDecimal(index, d);
        } else if (value instanceof Double d) {
            ps.setDouble(index, d);
        } else if (value instanceof Float f) {
            ps.setFloat(index, f);
        } else if (value instanceof JsonText j) {
            ps.setString(index, j.text());
        } else {
            throw new IllegalArgumentException("cannot bind " + value.getClass().getName());
        }
    }

    static void bindInteger(PreparedStatement ps, int index, long v, int binlogType, boolean unsigned)
        throws SQLException {
        if (!unsigned) {
            ps.setLong(index, v);
            return;
        }
        long u = unsignedValue(v, binlogType);
        if (u < 0) {
            ps.setBigDecimal(index, new BigDecimal(Long.toUnsignedString(u)));
        } else {
            ps.setLong(index, u);
        }
    }

    /** The unsigned value of a cell read signed at its type's width (BIGINT stays a raw 64-bit pattern). */
    public static long unsignedValue(long v, int binlogType) {
        return switch (BinlogType.integerWidth(binlogType)) {
            case 1 -> v & 0xFFL;
            case 2 -> v & 0xFFFFL;
            case 3 -> v & 0xFFFFFFL;
            case 4 -> v & 0xFFFFFFFFL;
            default -> v;
        };
    }
}
