package io.binlogapplier.binlog;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.Locale;

/**
 * Decodes one row image of a rows event into exact Java values, one per table column (columns
 * absent from the image stay null; the event's column bitmap says which are present).
 *
 * <p>Values are exact and lossless, because mysql-binlog-connector-java's own decoding is not
 * (see shared/research/external_appliers.md, "Data-type pitfalls"):
 * <ul>
 *   <li>integers: {@link Long}, read <em>signed</em> at the column's width; the applier turns them
 *       unsigned when the column is UNSIGNED (the binlog alone cannot tell);</li>
 *   <li>FLOAT {@link Float}, DOUBLE {@link Double} (bit-exact, -0 and denormals kept);</li>
 *   <li>DECIMAL {@link BigDecimal} with the column's scale;</li>
 *   <li>DATE, TIME, DATETIME, TIMESTAMP: {@link String} literals such as
 *       {@code 2024-02-29 13:00:00.000100}, {@code -838:59:59}, {@code 0000-00-00}; TIMESTAMP in UTC
 *       (the applier's sessions run at {@code time_zone='+00:00'});</li>
 *   <li>YEAR {@link Integer} (0 for the zero year), ENUM {@link Integer} index, SET {@link Long} bits;</li>
 *   <li>CHAR, VARCHAR, TEXT, BINARY, BLOB, GEOMETRY and BIT: {@code byte[]} exactly as stored;</li>
 *   <li>MySQL JSON: {@link JsonText}, the text {@link MysqlJson} prints as MySQL would.</li>
 * </ul>
 */
public final class RowImageDecoder {
    private static final int[] DIG2BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};

    private RowImageDecoder() {
    }

    /**
     * Reads one image: the NULL bitmap over the present columns, then each present, non-NULL cell.
     */
    static Object[] decode(ByteReader r, TableMap map, BitSet present, int presentCount) {
        int columns = map.columnCount();
        Object[] row = new Object[columns];
        BitSet nulls = r.bitmap(presentCount);
        int j = 0;
        for (int i = 0; i < columns; i++) {
            if (!present.get(i)) {
                continue;
            }
            if (!nulls.get(j)) {
                row[i] = decodeCell(r, map.types()[i], map.metas()[i], map.lengths()[i], map, i);
            }
            j++;
        }
        return row;
    }

    /**
     * Moves past one image without decoding its values: the NULL bitmap over the present columns,
     * then each present, non-NULL cell by its stored width. Reads exactly the bytes {@link #decode}
     * reads (RowImageSkipTest checks both on every rows fixture), so rows can be counted, and a
     * malformed event found, without allocating a value.
     */
    static void skip(ByteReader r, TableMap map, BitSet present, int presentCount) {
        int columns = map.columnCount();
        int nullStart = r.position();
        r.skip((presentCount + 7) / 8);
        int j = 0;
        for (int i = 0; i < columns; i++) {
            if (!present.get(i)) {
                continue;
            }
            if (!r.bit(nullStart, j)) {
                skipCell(r, map.types()[i], map.metas()[i], map.lengths()[i], map, i);
            }
            j++;
        }
    }

    /** Moves past one present, non-NULL cell of {@code column} by its stored width. */
    static void skipCell(ByteReader r, TableMap map, int column) {
        skipCell(r, map.types()[column], map.metas()[column], map.lengths()[column], map, column);
    }

    private static void skipCell(ByteReader r, int type, int meta, int length, TableMap map, int column) {
        switch (type) {
            case BinlogType.TINY, BinlogType.YEAR -> r.skip(1);
            case BinlogType.SHORT -> r.skip(2);
            case BinlogType.INT24, BinlogType.DATE, BinlogType.TIME -> r.skip(3);
            case BinlogType.LONG, BinlogType.FLOAT, BinlogType.TIMESTAMP -> r.skip(4);
            case BinlogType.LONGLONG, BinlogType.DOUBLE, BinlogType.DATETIME -> r.skip(8);
            case BinlogType.NEWDECIMAL -> r.skip(decimalBytes(meta & 0xFF, meta >> 8));
            case BinlogType.TIMESTAMP2 -> r.skip(4 + (meta + 1) / 2);
            case BinlogType.DATETIME2 -> r.skip(5 + (meta + 1) / 2);
            case BinlogType.TIME2 -> r.skip(3 + (meta + 1) / 2);
            case BinlogType.BIT -> r.skip(((meta >> 8) * 8 + (meta & 0xFF) + 7) / 8);
            case BinlogType.VARCHAR, BinlogType.VAR_STRING -> r.skip(meta < 256 ? r.u8() : r.u16());
            case BinlogType.STRING -> r.skip(length < 256 ? r.u8() : r.u16());
            case BinlogType.ENUM, BinlogType.SET -> r.skip(length);
            case BinlogType.BLOB, BinlogType.TINY_BLOB, BinlogType.MEDIUM_BLOB, BinlogType.LONG_BLOB,
                 BinlogType.GEOMETRY, BinlogType.JSON -> r.skip(lengthPrefixed(r, meta));
            default -> throw new BinlogFormatException("column " + (column + 1) + " of " + map
                + " has binlog type " + BinlogType.name(type) + ", which binlog-applier cannot decode");
        }
    }

    /** Bytes of a decimal2bin cell of {@code precision} digits, {@code scale} after the point. */
    private static int decimalBytes(int precision, int scale) {
        int intg = precision - scale;
        return intg / 9 * 4 + DIG2BYTES[intg % 9] + scale / 9 * 4 + DIG2BYTES[scale % 9];
    }

    static Object decodeCell(ByteReader r, int type, int meta, int length, TableMap map, int column) {
        switch (type) {
            case BinlogType.TINY:
                return (long) (byte) r.u8();
            case BinlogType.SHORT:
                return (long) (short) r.u16();
            case BinlogType.INT24:
                return (long) ((r.u24() << 8) >> 8);
            case BinlogType.LONG:
                return (long) (int) r.u32();
            case BinlogType.LONGLONG:
                return r.i64();
            case BinlogType.FLOAT:
                return Float.intBitsToFloat((int) r.u32());
            case BinlogType.DOUBLE:
                return Double.longBitsToDouble(r.i64());
            case BinlogType.NEWDECIMAL:
                return decimal(r, meta & 0xFF, meta >> 8);
            case BinlogType.YEAR: {
                int y = r.u8();
                return y == 0 ? 0 : 1900 + y;
            }
            case BinlogType.DATE:
                return date(r.u24());
            case BinlogType.TIME:
                return oldTime((r.u24() << 8) >> 8);
            case BinlogType.DATETIME:
                return oldDatetime(r.i64());
            case BinlogType.TIMESTAMP:
                return timestamp(r.u32(), 0, 0);
            case BinlogType.TIMESTAMP2:
                return timestamp2(r, meta);
            case BinlogType.DATETIME2:
                return datetime2(r, meta);
            case BinlogType.TIME2:
                return time2(r, meta);
            case BinlogType.BIT: {
                int bits = (meta >> 8) * 8 + (meta & 0xFF);
                return r.bytes((bits + 7) / 8);
            }
            case BinlogType.VARCHAR:
            case BinlogType.VAR_STRING:
                return r.bytes(meta < 256 ? r.u8() : r.u16());
            case BinlogType.STRING:
                return r.bytes(length < 256 ? r.u8() : r.u16());
            case BinlogType.ENUM:
                return (int) r.uLE(length);
            case BinlogType.SET:
                return r.uLE(length);
            case BinlogType.BLOB:
            case BinlogType.TINY_BLOB:
            case BinlogType.MEDIUM_BLOB:
            case BinlogType.LONG_BLOB:
            case BinlogType.GEOMETRY:
                return r.bytes(lengthPrefixed(r, meta));
            case BinlogType.JSON:
                return json(r.bytes(lengthPrefixed(r, meta)), map, column);
            default:
                throw new BinlogFormatException("column " + (column + 1) + " of " + map
                    + " has binlog type " + BinlogType.name(type) + ", which binlog-applier cannot decode");
        }
    }

    private static int lengthPrefixed(ByteReader r, int lengthBytes) {
        long n = r.uLE(lengthBytes);
        if (n > Integer.MAX_VALUE) {
            throw new BinlogFormatException("cell of " + n + " bytes is larger than a Java array");
        }
        return (int) n;
    }

    private static JsonText json(byte[] binary, TableMap map, int column) {
        // MySQL writes an empty value for a JSON column that holds the JSON literal null
        // (Field_json::store of an empty document); MysqlJson reads it as null.
        try {
            return MysqlJson.toJsonText(binary);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            // A BinlogFormatException for bytes that are not binary JSON; anything else (a bug in
            // the decoder, an AssertionError) must not escape as some other error either.
            BinlogFormatException f = new BinlogFormatException("column " + (column + 1) + " of " + map
                + " holds binary JSON that could not be decoded: "
                + (e instanceof BinlogFormatException ? e.getMessage() : e.toString()));
            f.initCause(e);
            throw f;
        }
    }

    /** MySQL's decimal2bin format, read exactly (strings.c / decimal.cc). */
    static BigDecimal decimal(ByteReader r, int precision, int scale) {
        int intg = precision - scale;
        int intg0 = intg / 9;
        int intg0x = intg % 9;
        int frac0 = scale / 9;
        int frac0x = scale % 9;
        int size = intg0 * 4 + DIG2BYTES[intg0x] + frac0 * 4 + DIG2BYTES[frac0x];
        byte[] b = r.bytes(size);
        boolean positive = (b[0] & 0x80) != 0;
        b[0] ^= (byte) 0x80;
        if (!positive) {
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) ~b[i];
            }
        }
        StringBuilder sb = new StringBuilder(precision + 3);
        if (!positive) {
            sb.append('-');
        }
        int p = 0;
        boolean any = false;
        if (intg0x > 0) {
            long v = be(b, p, DIG2BYTES[intg0x]);
            p += DIG2BYTES[intg0x];
            if (v != 0) {
                sb.append(v);
                any = true;
            }
        }
        for (int i = 0; i < intg0; i++) {
            long v = be(b, p, 4);
            p += 4;
            if (any) {
                pad(sb, v, 9);
            } else if (v != 0) {
                sb.append(v);
                any = true;
            }
        }
        if (!any) {
            sb.append('0');
        }
        if (scale > 0) {
            sb.append('.');
            for (int i = 0; i < frac0; i++) {
                pad(sb, be(b, p, 4), 9);
                p += 4;
            }
            if (frac0x > 0) {
                pad(sb, be(b, p, DIG2BYTES[frac0x]), frac0x);
            }
        }
        return new BigDecimal(sb.toString());
    }

    private static long be(byte[] b, int off, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    private static void pad(StringBuilder sb, long v, int width) {
        String s = Long.toString(v);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        sb.append(s);
    }

    static String date(int v) {
        int day = v & 31;
        int month = (v >> 5) & 15;
        int year = v >> 9;
        return ymd(new StringBuilder(10), year, month, day).toString();
    }

    private static StringBuilder ymd(StringBuilder sb, int year, int month, int day) {
        pad(sb, year, 4);
        sb.append('-');
        pad(sb, month, 2);
        sb.append('-');
        pad(sb, day, 2);
        return sb;
    }

    private static StringBuilder hms(StringBuilder sb, long hour, int minute, int second) {
        pad(sb, hour, 2);
        sb.append(':');
        pad(sb, minute, 2);
        sb.append(':');
        pad(sb, second, 2);
        return sb;
    }

    private static void fraction(StringBuilder sb, long micros, int decimals) {
        if (decimals <= 0) {
            return;
        }
        // Locale.ROOT: the default locale may format digits in another script (ar-EG gives
        // U+0660..), which would corrupt the literal.
        String six = String.format(Locale.ROOT, "%06d", micros);
        sb.append('.').append(six, 0, Math.min(decimals, 6));
    }

    /** Pre-5.6 TIME: signed HHMMSS as an integer. */
    static String oldTime(int v) {
        StringBuilder sb = new StringBuilder();
        if (v < 0) {
            sb.append('-');
            v = -v;
        }
        return hms(sb, v / 10000, (v / 100) % 100, v % 100).toString();
    }

    /** Pre-5.6 DATETIME: YYYYMMDDhhmmss as an integer. */
    static String oldDatetime(long v) {
        long date = v / 1000000;
        long time = v % 1000000;
        StringBuilder sb = ymd(new StringBuilder(19), (int) (date / 10000), (int) (date / 100 % 100), (int) (date % 100));
        sb.append(' ');
        return hms(sb, time / 10000, (int) (time / 100 % 100), (int) (time % 100)).toString();
    }

    static String timestamp(long seconds, long micros, int decimals) {
        StringBuilder sb = new StringBuilder(26);
        if (seconds == 0 && micros == 0) {
            // The zero TIMESTAMP is stored as 0 seconds; the lowest real one is 1970-01-01 00:00:01 UTC.
            sb.append("0000-00-00 00:00:00");
        } else {
            LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
            ymd(sb, t.getYear(), t.getMonthValue(), t.getDayOfMonth()).append(' ');
            hms(sb, t.getHour(), t.getMinute(), t.getSecond());
        }
        fraction(sb, micros, decimals);
        return sb.toString();
    }

    static String timestamp2(ByteReader r, int decimals) {
        long seconds = r.uBE(4);
        long micros = switch (decimals) {
            case 0 -> 0;
            case 1, 2 -> r.u8() * 10000L;
            case 3, 4 -> r.uBE(2) * 100L;
            case 5, 6 -> r.uBE(3);
            default -> throw new BinlogFormatException("TIMESTAMP precision " + decimals);
        };
        return timestamp(seconds, micros, decimals);
    }

    static String datetime2(ByteReader r, int decimals) {
        long intpart = r.uBE(5) - 0x8000000000L;
        long frac = switch (decimals) {
            case 0 -> 0;
            case 1, 2 -> (long) (byte) r.u8() * 10000L;
            case 3, 4 -> (long) (short) r.uBE(2) * 100L;
            case 5, 6 -> (r.uBE(3) << 40) >> 40;
            default -> throw new BinlogFormatException("DATETIME precision " + decimals);
        };
        long packed = (intpart << 24) + frac;
        if (packed < 0) {
            throw new BinlogFormatException("negative DATETIME value " + packed);
        }
        long micros = packed % (1L << 24);
        long ymdhms = packed >> 24;
        long ymd = ymdhms >> 17;
        long ym = ymd >> 5;
        long hmsPart = ymdhms % (1L << 17);
        StringBuilder sb = ymd(new StringBuilder(26), (int) (ym / 13), (int) (ym % 13), (int) (ymd % (1 << 5)));
        sb.append(' ');
        hms(sb, hmsPart >> 12, (int) ((hmsPart >> 6) % (1 << 6)), (int) (hmsPart % (1 << 6)));
        fraction(sb, micros, decimals);
        return sb.toString();
    }

    /** MySQL 5.6+ TIME (my_time_packed_from_binary), including negative values and hours beyond 24. */
    static String time2(ByteReader r, int decimals) {
        long packed;
        switch (decimals) {
            case 0 -> packed = (r.uBE(3) - 0x800000L) << 24;
            case 1, 2 -> {
                long intpart = r.uBE(3) - 0x800000L;
                long frac = r.u8();
                if (intpart < 0 && frac != 0) {
                    intpart++;
                    frac -= 0x100;
                }
                packed = (intpart << 24) + frac * 10000L;
            }
            case 3, 4 -> {
                long intpart = r.uBE(3) - 0x800000L;
                long frac = r.uBE(2);
                if (intpart < 0 && frac != 0) {
                    intpart++;
                    frac -= 0x10000;
                }
                packed = (intpart << 24) + frac * 100L;
            }
            case 5, 6 -> packed = r.uBE(6) - 0x800000000000L;
            default -> throw new BinlogFormatException("TIME precision " + decimals);
        }
        StringBuilder sb = new StringBuilder(18);
        if (packed < 0) {
            sb.append('-');
            packed = -packed;
        }
        long micros = packed % (1L << 24);
        long hmsPart = packed >> 24;
        hms(sb, (hmsPart >> 12) % (1 << 10), (int) ((hmsPart >> 6) % (1 << 6)), (int) (hmsPart % (1 << 6)));
        fraction(sb, micros, decimals);
        return sb.toString();
    }
}
