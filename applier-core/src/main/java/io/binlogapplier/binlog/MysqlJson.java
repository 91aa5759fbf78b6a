package io.binlogapplier.binlog;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Turns MySQL's binary JSON (the value of a JSON column in a row image) into JSON text that MySQL
 * parses back to the same value, printed the way MySQL itself prints it ({@code SELECT doc}):
 * {@code {"a": 1, "b": [true, null]}}, members in storage order.
 *
 * <p>The binary format (MySQL's {@code json_binary.h}/{@code json_binary.cc}): a document is one
 * type byte and the value. Objects and arrays come in a small form (2-byte counts, sizes and
 * offsets) and a large one (4 bytes): element count, size in bytes, then for objects one key entry
 * per member (key offset, 2-byte key length), then one value entry per element (type byte, then
 * the offset of the value or, for literals and 16-bit integers, and 32-bit integers in the large
 * form, the value itself), then keys and values. Offsets count from the element count. Strings are
 * a variable-length length (7 bits a byte, low bits first, high bit set while more follow) and
 * utf8mb4 bytes. Opaque values are a MySQL field type byte, a variable-length length and the
 * field's bytes.
 *
 * <p>Printing follows MySQL's {@code json_dom.cc} ({@code wrapper_to_string}):
 * <ul>
 *   <li>strings and keys in double quotes with {@code "}, {@code \}, and control characters
 *       escaped ({@code \b \t \n \f \r}, others <code>&#92;u00XX</code>); everything else, non-ASCII
 *       included, as is;</li>
 *   <li>integers exactly, uint64 unsigned;</li>
 *   <li>doubles in the shortest digits that read back to the same double (the closest such),
 *       laid out like {@code my_gcvt}: plain notation from 1e-15 to below 1e15 ({@code 0.1},
 *       {@code 100000000000000.0}), otherwise {@code 1.5e300}, {@code 5e-324}, {@code 1e15};
 *       {@code .0} is appended when the text would otherwise read as an integer ({@code 1.0},
 *       {@code -0.0});</li>
 *   <li>opaque DATE as {@code "2015-01-15"}, TIME as {@code "-838:59:59.000000"}, DATETIME and
 *       TIMESTAMP as {@code "2015-01-15 23:24:25.000000"} (always six fraction digits);
 *       DECIMAL as a number with its scale ({@code 1.50}); VAR_STRING as a string; anything else as
 *       {@code "base64:type<field type>:<base64>"} with MySQL's line break after every 76 base64
 *       characters (printed as {@code \n}).</li>
 * </ul>
 *
 * <p>An empty value is the JSON literal {@code null} (what MySQL reads it as). Anything that does
 * not follow the format, including nesting deeper than MySQL allows (100 arrays/objects), is a
 * {@link BinlogFormatException}: the value is never guessed at.
 */
public final class MysqlJson {
    /** MySQL's JSON_DOCUMENT_MAX_DEPTH: it cannot store or print deeper nesting. */
    private static final int MAX_DEPTH = 100;

    private static final int SMALL_OBJECT = 0x00;
    private static final int LARGE_OBJECT = 0x01;
    private static final int SMALL_ARRAY = 0x02;
    private static final int LARGE_ARRAY = 0x03;
    private static final int LITERAL = 0x04;
    private static final int INT16 = 0x05;
    private static final int UINT16 = 0x06;
    private static final int INT32 = 0x07;
    private static final int UINT32 = 0x08;
    private static final int INT64 = 0x09;
    private static final int UINT64 = 0x0a;
    private static final int DOUBLE = 0x0b;
    private static final int STRING = 0x0c;
    private static final int OPAQUE = 0x0f;

    private static final int NULL_LITERAL = 0x00;
    private static final int TRUE_LITERAL = 0x01;
    private static final int FALSE_LITERAL = 0x02;

    /** Bytes of a DECIMAL group of 0..9 digits in MySQL's decimal2bin format. */
    private static final int[] DIG2BYTES = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
    private static final int DECIMAL_MAX_PRECISION = 65;
    private static final int DECIMAL_MAX_SCALE = 30;
    /** my_gcvt prints a double in plain notation when its decimal exponent (dtoa's decpt) is in this range. */
    private static final int MIN_DECPT_FOR_PLAIN = -14;
    private static final int MAX_DECPT_FOR_PLAIN = 15;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final byte[] b;
    private final StringBuilder out;
    /** Strict: bytes that are not UTF-8 fail instead of becoming U+FFFD. */
    private CharsetDecoder utf8;
    /** An opaque scalar (or an unsigned integer, see {@link #unsignedSeen}) was printed. */
    private boolean opaqueSeen;

    private MysqlJson(byte[] b, StringBuilder out) {
        this.b = b;
        this.out = out;
    }

    /**
     * The JSON text of one binary JSON value.
     *
     * @throws BinlogFormatException if {@code binary} is not well-formed binary JSON
     */
    public static String toText(byte[] binary) {
        return toJsonText(binary).text();
    }

    /**
     * The JSON text of one binary JSON value, and whether it holds an opaque scalar (see
     * {@link JsonText#opaque}).
     *
     * @throws BinlogFormatException if {@code binary} is not well-formed binary JSON
     */
    public static JsonText toJsonText(byte[] binary) {
        if (binary.length == 0) {
            return new JsonText("null", false);
        }
        StringBuilder out = new StringBuilder(Math.min(binary.length, 1 << 20) + 16);
        MysqlJson json = new MysqlJson(binary, out);
        json.value(binary[0] & 0xFF, 1, binary.length - 1, 0);
        return new JsonText(out.toString(), json.opaqueSeen);
    }

    /**
     * Prints the value of binary type {@code type} whose bytes start at {@code pos}, with at most
     * {@code len} bytes available (the rest of its container or document).
     */
    private void value(int type, int pos, int len, int depth) {
        switch (type) {
            case SMALL_OBJECT:
                container(pos, len, false, true, depth + 1);
                break;
            case LARGE_OBJECT:
                container(pos, len, true, true, depth + 1);
                break;
            case SMALL_ARRAY:
                container(pos, len, false, false, depth + 1);
                break;
            case LARGE_ARRAY:
                container(pos, len, true, false, depth + 1);
                break;
            default:
                scalar(type, pos, len);
        }
    }

    private void container(int pos, int len, boolean large, boolean object, int depth) {
        if (depth > MAX_DEPTH) {
            throw malformed(at(large, object, pos) + " is nested deeper than " + MAX_DEPTH + " levels");
        }
        int offsetSize = large ? 4 : 2;
        if (len < 2 * offsetSize) {
            throw malformed(at(large, object, pos) + " needs " + 2 * offsetSize
                + " bytes for its element count and size, has " + len);
        }
        long count = offsetOrSize(pos, large);
        long size = offsetOrSize(pos + offsetSize, large);
        if (size > len) {
            throw malformed(at(large, object, pos) + " says it has " + size + " bytes, only " + len + " remain");
        }
        int keyEntrySize = offsetSize + 2;
        int valueEntrySize = offsetSize + 1;
        long firstValueEntry = 2L * offsetSize + (object ? count * keyEntrySize : 0);
        long headerSize = firstValueEntry + count * valueEntrySize;
        if (headerSize > size) {
            throw malformed(at(large, object, pos) + " has " + count + " elements, whose entries need "
                + headerSize + " bytes, more than its size " + size);
        }
        int n = (int) count;
        int bytes = (int) size;
        out.append(object ? '{' : '[');
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.append(", ");
            }
            if (object) {
                int keyEntry = pos + 2 * offsetSize + i * keyEntrySize;
                long keyOffset = offsetOrSize(keyEntry, large);
                int keyLength = u16(keyEntry + offsetSize);
                if (keyOffset < headerSize || keyOffset + keyLength > bytes) {
                    throw malformed("key " + i + " of the " + at(large, object, pos) + " (offset " + keyOffset
                        + ", length " + keyLength + ") lies outside the key area " + headerSize + ".." + bytes);
                }
                string(pos + (int) keyOffset, keyLength);
                out.append(": ");
            }
            int valueEntry = (int) firstValueEntry + i * valueEntrySize;
            int elementType = b[pos + valueEntry] & 0xFF;
            if (inlined(elementType, large)) {
                scalar(elementType, pos + valueEntry + 1, offsetSize);
                continue;
            }
            long valueOffset = offsetOrSize(pos + valueEntry + 1, large);
            if (valueOffset > bytes || valueOffset < valueEntry + valueEntrySize) {
                throw malformed("element " + i + " of the " + at(large, object, pos) + " points to offset "
                    + valueOffset + ", outside its value area " + (valueEntry + valueEntrySize) + ".." + bytes);
            }
            value(elementType, pos + (int) valueOffset, bytes - (int) valueOffset, depth);
        }
        out.append(object ? '}' : ']');
    }

    /** "small array at offset 12", for messages. */
    private static String at(boolean large, boolean object, int pos) {
        return (large ? "large " : "small ") + (object ? "object" : "array") + " at offset " + pos;
    }

    /** Literals and 16-bit integers sit in the value entry itself; so do 32-bit ones in the large format. */
    private static boolean inlined(int type, boolean large) {
        switch (type) {
            case LITERAL:
            case INT16:
            case UINT16:
                return true;
            case INT32:
            case UINT32:
                return large;
            default:
                return false;
        }
    }

    private void scalar(int type, int pos, int len) {
        switch (type) {
            case LITERAL: {
                need(type, pos, len, 1);
                int literal = b[pos] & 0xFF;
                if (literal == NULL_LITERAL) {
                    out.append("null");
                } else if (literal == TRUE_LITERAL) {
                    out.append("true");
                } else if (literal == FALSE_LITERAL) {
                    out.append("false");
                } else {
                    throw malformed("literal at offset " + pos + " has unknown value 0x"
                        + Integer.toHexString(literal));
                }
                break;
            }
            case INT16:
                need(type, pos, len, 2);
                out.append((short) u16(pos));
                break;
            case UINT16:
                need(type, pos, len, 2);
                out.append(u16(pos));
                unsignedSeen();
                break;
            case INT32:
                need(type, pos, len, 4);
                out.append((int) le(pos, 4));
                break;
            case UINT32:
                need(type, pos, len, 4);
                out.append(le(pos, 4));
                unsignedSeen();
                break;
            case INT64:
                need(type, pos, len, 8);
                out.append(le(pos, 8));
                break;
            case UINT64:
                need(type, pos, len, 8);
                out.append(Long.toUnsignedString(le(pos, 8)));
                unsignedSeen();
                break;
            case DOUBLE: {
                need(type, pos, len, 8);
                double d = Double.longBitsToDouble(le(pos, 8));
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw malformed("double at offset " + pos + " is " + d + ", which JSON cannot hold");
                }
                out.append(doubleText(d));
                break;
            }
            case STRING: {
                long[] lengthAndSize = variableLength(pos, len);
                int start = pos + (int) lengthAndSize[1];
                if (lengthAndSize[0] > len - lengthAndSize[1]) {
                    throw malformed("string at offset " + pos + " says it has " + lengthAndSize[0] + " bytes, only "
                        + (len - lengthAndSize[1]) + " remain");
                }
                string(start, (int) lengthAndSize[0]);
                break;
            }
            case OPAQUE: {
                need(type, pos, len, 1);
                int fieldType = b[pos] & 0xFF;
                long[] lengthAndSize = variableLength(pos + 1, len - 1);
                int start = pos + 1 + (int) lengthAndSize[1];
                if (lengthAndSize[0] > len - 1 - lengthAndSize[1]) {
                    throw malformed("opaque value at offset " + pos + " says it has " + lengthAndSize[0]
                        + " bytes, only " + (len - 1 - lengthAndSize[1]) + " remain");
                }
                opaque(fieldType, start, (int) lengthAndSize[0]);
                break;
            }
            default:
                throw malformed("unknown value type 0x" + Integer.toHexString(type) + " at offset " + pos);
        }
    }

    private void need(int type, int pos, int len, int n) {
        if (len < n) {
            throw malformed("value of type 0x" + Integer.toHexString(type) + " at offset " + pos + " needs " + n
                + " bytes, only " + len + " remain");
        }
    }

    /** MySQL's read_variable_length: up to 5 bytes, 7 bits each, low bits first. Returns {length, bytes used}. */
    private long[] variableLength(int pos, int len) {
        long length = 0;
        for (int i = 0; i < Math.min(len, 5); i++) {
            int v = b[pos + i] & 0xFF;
            length |= (long) (v & 0x7F) << (7 * i);
            if ((v & 0x80) == 0) {
                if (length > 0xFFFFFFFFL) {
                    throw malformed("length at offset " + pos + " exceeds 32 bits");
                }
                return new long[] {length, i + 1};
            }
        }
        throw malformed("length at offset " + pos + " is cut off or longer than 5 bytes");
    }

    /**
     * An UNSIGNED INTEGER scalar: its digits read back as a signed INTEGER wherever they fit one
     * ({@code JSON_TYPE} UNSIGNED INTEGER becomes INTEGER), so the text does not reproduce it on a
     * MySQL target either: counted as opaque.
     */
    private void unsignedSeen() {
        opaqueSeen = true;
    }

    private void opaque(int fieldType, int pos, int len) {
        opaqueSeen = true;
        switch (fieldType) {
            case BinlogType.NEWDECIMAL:
                out.append(decimal(pos, len).toPlainString());
                break;
            case BinlogType.DATE:
                out.append('"');
                date(packedTemporal(fieldType, pos, len));
                out.append('"');
                break;
            case BinlogType.DATETIME:
            case BinlogType.TIMESTAMP:
                out.append('"');
                datetime(packedTemporal(fieldType, pos, len));
                out.append('"');
                break;
            case BinlogType.TIME:
                out.append('"');
                time(packedTemporal(fieldType, pos, len));
                out.append('"');
                break;
            case BinlogType.VAR_STRING:
                // MySQL prints opaque VAR_STRING values as plain strings (wrapper_to_string).
                string(pos, len);
                break;
            default:
                quote(base64(fieldType, pos, len));
        }
    }

    /** DECIMAL inside JSON: precision byte, scale byte, then decimal2bin of that precision and scale. */
    private BigDecimal decimal(int pos, int len) {
        if (len < 2) {
            throw malformed("DECIMAL at offset " + pos + " has " + len + " bytes, too few for precision and scale");
        }
        int precision = b[pos];
        int scale = b[pos + 1];
        if (precision < 1 || precision > DECIMAL_MAX_PRECISION || scale < 0 || scale > DECIMAL_MAX_SCALE
            || scale > precision) {
            throw malformed("DECIMAL at offset " + pos + " has precision " + precision + " and scale " + scale);
        }
        int intg = precision - scale;
        int size = intg / 9 * 4 + DIG2BYTES[intg % 9] + scale / 9 * 4 + DIG2BYTES[scale % 9];
        if (size != len - 2) {
            throw malformed("DECIMAL(" + precision + "," + scale + ") at offset " + pos + " takes " + size
                + " bytes, the value has " + (len - 2));
        }
        BigDecimal d = RowImageDecoder.decimal(new ByteReader(b, pos + 2, pos + len), precision, scale);
        // A digit group holding more than its digits (not written by MySQL) would shift the value.
        if (d.scale() != scale || d.precision() > precision) {
            throw malformed("DECIMAL(" + precision + "," + scale + ") at offset " + pos
                + " holds digit groups out of range");
        }
        return d;
    }

    /** The 8-byte little-endian packed value of a temporal opaque (TIME_to_longlong_*_packed). */
    private long packedTemporal(int fieldType, int pos, int len) {
        if (len != 8) {
            throw malformed(BinlogType.name(fieldType) + " at offset " + pos + " has " + len + " bytes, not 8");
        }
        return le(pos, 8);
    }

    /** TIME_from_longlong_datetime_packed, printed as my_datetime_to_str with 6 fraction digits. */
    private void datetime(long packed) {
        long[] f = datetimeFields(packed);
        ymd(f);
        out.append(' ');
        two(f[3]).append(':');
        two(f[4]).append(':');
        two(f[5]);
        micros(f[6]);
    }

    /** TIME_from_longlong_date_packed (the datetime layout; MySQL prints only the date part). */
    private void date(long packed) {
        ymd(datetimeFields(packed));
    }

    /** {year, month, day, hour, minute, second, microseconds}. */
    private static long[] datetimeFields(long packed) {
        if (packed < 0) {
            throw malformed("packed DATE/DATETIME " + packed + " is negative");
        }
        long micros = packed & 0xFFFFFF;
        long ymdhms = packed >>> 24;
        long ymd = ymdhms >>> 17;
        long ym = ymd >>> 5;
        long hms = ymdhms & 0x1FFFF;
        long year = ym / 13;
        if (year > 9999 || micros > 999_999) {
            throw malformed("packed DATE/DATETIME " + packed + " is out of range");
        }
        return new long[] {year, ym % 13, ymd & 31, hms >>> 12, (hms >>> 6) & 63, hms & 63, micros};
    }

    /** TIME_from_longlong_time_packed, printed as my_time_to_str with 6 fraction digits. */
    private void time(long packed) {
        if (packed == Long.MIN_VALUE) {
            throw malformed("packed TIME " + packed + " is out of range");
        }
        long abs = Math.abs(packed);
        long micros = abs & 0xFFFFFF;
        long hms = abs >>> 24;
        if (hms >= 1L << 22 || micros > 999_999) {
            throw malformed("packed TIME " + packed + " is out of range");
        }
        if (packed < 0) {
            out.append('-');
        }
        two(hms >>> 12).append(':');
        two((hms >>> 6) & 63).append(':');
        two(hms & 63);
        micros(micros);
    }

    private void ymd(long[] f) {
        two(f[0] / 100);
        two(f[0] % 100).append('-');
        two(f[1]).append('-');
        two(f[2]);
    }

    /** At least two digits, zero-padded. */
    private StringBuilder two(long v) {
        if (v < 10) {
            out.append('0');
        }
        return out.append(v);
    }

    private void micros(long micros) {
        String s = Long.toString(micros);
        out.append('.');
        for (int i = s.length(); i < 6; i++) {
            out.append('0');
        }
        out.append(s);
    }

    /** {@code base64:type<N>:} and MySQL's base64_encode (a newline after each 76 characters). */
    private String base64(int fieldType, int pos, int len) {
        byte[] data = new byte[len];
        System.arraycopy(b, pos, data, 0, len);
        String encoded = Base64.getEncoder().encodeToString(data);
        StringBuilder s = new StringBuilder(encoded.length() + encoded.length() / 76 + 20);
        s.append("base64:type").append(fieldType).append(':');
        for (int i = 0; i < encoded.length(); i += 76) {
            if (i > 0) {
                s.append('\n');
            }
            s.append(encoded, i, Math.min(encoded.length(), i + 76));
        }
        return s.toString();
    }

    /** A utf8mb4 string or key, quoted; bytes that are not UTF-8 are malformed JSON. */
    private void string(int pos, int len) {
        if (utf8 == null) {
            utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        String s;
        try {
            s = utf8.decode(ByteBuffer.wrap(b, pos, len)).toString();
        } catch (CharacterCodingException e) {
            throw malformed("string at offset " + pos + " (" + len + " bytes) is not valid UTF-8");
        }
        quote(s);
    }

    /** MySQL's double_quote: escapes {@code "}, {@code \} and U+0000..U+001F, nothing else. */
    private void quote(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                default:
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /**
     * A finite double as MySQL prints it in JSON: the shortest decimal digits that read back to the
     * same double (what dtoa mode 4 with MySQL's 34-character field gives), in my_gcvt's layout,
     * plus {@code .0} when that layout has neither a point nor an exponent.
     */
    private static String doubleText(double d) {
        StringBuilder s = new StringBuilder(26);
        if (d < 0 || (d == 0 && 1 / d < 0)) {
            s.append('-');
        }
        String digits;
        int decpt; // the value is 0.<digits> x 10^decpt
        if (d == 0) {
            digits = "0";
            decpt = 1;
        } else {
            BigDecimal shortest = shortest(Math.abs(d));
            digits = shortest.unscaledValue().toString();
            decpt = digits.length() - shortest.scale();
        }
        int len = digits.length();
        if (decpt >= MIN_DECPT_FOR_PLAIN && (decpt <= MAX_DECPT_FOR_PLAIN || decpt < len)) {
            if (decpt <= 0) {
                s.append("0.");
                for (int i = decpt; i < 0; i++) {
                    s.append('0');
                }
                s.append(digits);
            } else if (decpt < len) {
                s.append(digits, 0, decpt).append('.').append(digits, decpt, len);
            } else {
                s.append(digits);
                for (int i = len; i < decpt; i++) {
                    s.append('0');
                }
                s.append(".0");
            }
        } else {
            s.append(digits.charAt(0));
            if (len > 1) {
                s.append('.').append(digits, 1, len);
            }
            s.append('e').append(decpt - 1);
        }
        return s.toString();
    }

    /**
     * The decimal with the fewest significant digits that reads back as {@code abs} (positive,
     * finite), closest to it among those; trailing zeros stripped. Having a p-digit decimal in the
     * read-back interval implies having a (p+1)-digit one, so the fewest digits can be found by
     * bisection. Java's own digits (which read back, but before Java 19 are sometimes one digit
     * longer than needed) bound the search; usually one digit fewer already fails.
     */
    private static BigDecimal shortest(double abs) {
        BigDecimal exact = new BigDecimal(abs);
        int hi = significantDigits(Double.toString(abs));
        BigDecimal best = roundTripping(exact, abs, hi);
        if (best == null) {
            hi = 17;
            best = roundTripping(exact, abs, hi);
            if (best == null) {
                throw new IllegalStateException("no 17-digit decimal reads back as " + abs);
            }
        }
        if (hi == 1) {
            return best.stripTrailingZeros();
        }
        BigDecimal shorter = roundTripping(exact, abs, hi - 1);
        if (shorter == null) {
            return best.stripTrailingZeros();
        }
        best = shorter;
        hi--;
        int lo = 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            BigDecimal c = roundTripping(exact, abs, mid);
            if (c != null) {
                best = c;
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return best.stripTrailingZeros();
    }

    /** Significant digits of a Double.toString result such as {@code 1.25E-5} or {@code 0.0020}. */
    private static int significantDigits(String javaText) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < javaText.length(); i++) {
            char c = javaText.charAt(i);
            if (c == 'E') {
                break;
            }
            if (c >= '1' && c <= '9') {
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        if (first < 0) {
            return 1;
        }
        int n = 0;
        for (int i = first; i <= last; i++) {
            if (javaText.charAt(i) != '.') {
                n++;
            }
        }
        return Math.min(n, 17);
    }

    /**
     * A {@code digits}-digit decimal that reads back as {@code abs}: the nearest one, else the
     * nearest on the other side (the read-back interval is lopsided at powers of two), else null.
     */
    private static BigDecimal roundTripping(BigDecimal exact, double abs, int digits) {
        BigDecimal nearest = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
        if (nearest.doubleValue() == abs) {
            return nearest;
        }
        RoundingMode other = nearest.compareTo(exact) > 0 ? RoundingMode.FLOOR : RoundingMode.CEILING;
        BigDecimal next = exact.round(new MathContext(digits, other));
        return next.doubleValue() == abs ? next : null;
    }

    private long offsetOrSize(int pos, boolean large) {
        return large ? le(pos, 4) : u16(pos);
    }

    private int u16(int pos) {
        return (b[pos] & 0xFF) | (b[pos + 1] & 0xFF) << 8;
    }

    /** Little-endian integer of n bytes; for n = 4 unsigned, for n = 8 the raw 64 bits. */
    private long le(int pos, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = (v << 8) | (b[pos + i] & 0xFFL);
        }
        return v;
    }

    private static BinlogFormatException malformed(String message) {
        return new BinlogFormatException("binary JSON: " + message);
    }
}
