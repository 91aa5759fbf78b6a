package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link MysqlJson} on hand-written binary JSON (MySQL's {@code json_binary.h} layout: a type byte,
 * then the value; container offsets count from the element count). Expected texts are what MySQL
 * prints for the value ({@code json_dom.cc}, {@code wrapper_to_string}).
 */
class MysqlJsonTest {

    // --- scalars ---------------------------------------------------------------------------

    @Test
    void anEmptyValueIsTheJsonNullLiteral() {
        assertThat(MysqlJson.toText(new byte[0])).isEqualTo("null");
    }

    @Test
    void literalsPrintAsJsonLiterals() {
        assertThat(text("04 00")).isEqualTo("null");
        assertThat(text("04 01")).isEqualTo("true");
        assertThat(text("04 02")).isEqualTo("false");
    }

    @Test
    void signedIntegersPrintExactlyDownToTheirMinimum() {
        assertThat(text("05 00 80")).isEqualTo("-32768");
        assertThat(text("05 ff 7f")).isEqualTo("32767");
        assertThat(text("07 00 00 00 80")).isEqualTo("-2147483648");
        assertThat(text("09 00 00 00 00 00 00 00 80")).isEqualTo("-9223372036854775808");
        assertThat(text("09 ff ff ff ff ff ff ff 7f")).isEqualTo("9223372036854775807");
    }

    @Test
    void unsignedIntegersPrintAsUnsignedUpToUint64Max() {
        assertThat(text("06 ff ff")).isEqualTo("65535");
        assertThat(text("08 ff ff ff ff")).isEqualTo("4294967295");
        assertThat(text("0a 00 00 00 00 00 00 00 80")).isEqualTo("9223372036854775808");
        assertThat(text("0a ff ff ff ff ff ff ff ff")).isEqualTo("18446744073709551615");
    }

    @Test
    void doublesPrintInTheirShortestRoundTrippingDigits() {
        assertThat(doubleText(1.5e300)).isEqualTo("1.5e300");
        assertThat(doubleText(0.1)).isEqualTo("0.1");
        assertThat(doubleText(3.5)).isEqualTo("3.5");
        assertThat(doubleText(-2.25)).isEqualTo("-2.25");
        assertThat(doubleText(Double.MAX_VALUE)).isEqualTo("1.7976931348623157e308");
        // Java 17's Double.toString needs more digits: 4.9E-324, 9.999999999999999E22, 1.9999999999999998E23
        assertThat(doubleText(Double.MIN_VALUE)).isEqualTo("5e-324");
        assertThat(doubleText(1e23)).isEqualTo("1e23");
        assertThat(doubleText(2e23)).isEqualTo("2e23");
    }

    @Test
    void integralDoublesKeepAFractionOrExponentSoTheyStayDoubles() {
        assertThat(doubleText(1.0)).isEqualTo("1.0");
        assertThat(doubleText(-3.0)).isEqualTo("-3.0");
        assertThat(doubleText(0.0)).isEqualTo("0.0");
        assertThat(doubleText(-0.0)).isEqualTo("-0.0");
        assertThat(doubleText(1e14)).isEqualTo("100000000000000.0");
        assertThat(doubleText(1e15)).isEqualTo("1e15");
    }

    @Test
    void doublesUsePlainNotationForDecimalExponentsFromMinus15To14LikeMySql() {
        assertThat(doubleText(123456789012345.6)).isEqualTo("123456789012345.6");
        assertThat(doubleText(1234567890123456.8)).isEqualTo("1234567890123456.8");
        assertThat(doubleText(12345678901234568.0)).isEqualTo("1.2345678901234568e16");
        assertThat(doubleText(0.0001)).isEqualTo("0.0001");
        assertThat(doubleText(1e-15)).isEqualTo("0.000000000000001");
        assertThat(doubleText(1.5e-15)).isEqualTo("0.0000000000000015");
        assertThat(doubleText(1e-16)).isEqualTo("1e-16");
        assertThat(doubleText(-1.25e-100)).isEqualTo("-1.25e-100");
    }

    @Test
    void everyFiniteDoubleReadsBackExactlyInNoMoreDigitsThanJavaUses() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            double d = Double.longBitsToDouble(random.nextLong());
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            String text = doubleText(d);
            assertThat(Double.parseDouble(text)).as(text).isEqualTo(d);
            assertThat(significantDigits(text)).as(text).isLessThanOrEqualTo(significantDigits(Double.toString(d)));
        }
    }

    @Test
    void aNanOrInfiniteDoubleIsMalformed() {
        assertMalformed("0b 00 00 00 00 00 00 f8 7f", "double");
        assertMalformed("0b 00 00 00 00 00 00 f0 7f", "double");
    }

    @Test
    void stringsAreQuotedWithTheirVariableLengthPrefix() {
        assertThat(text("0c 00")).isEqualTo("\"\"");
        assertThat(text("0c 03 61 62 63")).isEqualTo("\"abc\"");
        // 200 = 0xc8: low 7 bits 0x48 with the continuation bit, then 0x01
        assertThat(MysqlJson.toText(cat(hex("0c c8 01"), repeat('a', 200)))).isEqualTo("\"" + "a".repeat(200) + "\"");
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscapedAsMySqlEscapesThem() {
        // " \ / BS TAB LF FF CR NUL US DEL
        String text = text("0c 0b 22 5c 2f 08 09 0a 0c 0d 00 1f 7f");

        assertThat(text).isEqualTo("\"\\\"\\\\/\\b\\t\\n\\f\\r\\u0000\\u001f\u007f\"");
    }

    @Test
    void nonAsciiCharactersStayAsTheyAre() {
        // "é中😀": 2-, 3- and 4-byte UTF-8
        assertThat(text("0c 09 c3 a9 e4 b8 ad f0 9f 98 80")).isEqualTo("\"é中\uD83D\uDE00\"");
    }

    @Test
    void aStringThatIsNotUtf8IsMalformed() {
        assertMalformed("0c 02 c3 28", "UTF-8");
    }

    // --- containers ------------------------------------------------------------------------

    @Test
    void emptyContainersPrintAsEmptyBracketsAndBraces() {
        assertThat(text("00 00 00 04 00")).isEqualTo("{}");
        assertThat(text("02 00 00 04 00")).isEqualTo("[]");
        assertThat(text("01 00 00 00 00 08 00 00 00")).isEqualTo("{}");
        assertThat(text("03 00 00 00 00 08 00 00 00")).isEqualTo("[]");
    }

    /** The example in the comment on Value::update_in_shadow in MySQL's json_binary.cc. */
    @Test
    void theArrayOfTwoStringsFromMySqlsOwnCommentsDecodes() {
        assertThat(text("02 02 00 12 00  0c 0a 00  0c 0e 00  03 61 62 63  03 64 65 66"))
            .isEqualTo("[\"abc\", \"def\"]");
    }

    /** The same example after its partial updates: freed bytes stay behind and are skipped. */
    @Test
    void partiallyUpdatedArraysWithUnusedBytesDecodeThroughTheirOffsets() {
        assertThat(text("02 02 00 12 00  0c 0a 00  0c 0d 00  02 58 59  04 58 59 5a 57"))
            .isEqualTo("[\"XY\", \"XYZW\"]");
        assertThat(text("02 02 00 12 00  0c 0a 00  05 c8 01  02 58 59  04 58 59 5a 57"))
            .isEqualTo("[\"XY\", 456]");
    }

    @Test
    void smallContainersInlineLiteralsAndInt16ButStoreInt32AtAnOffset() {
        String doc = "02 05 00 17 00"  // small array, 5 elements, 23 bytes
            + " 04 01 00"               // [0] true, inlined
            + " 05 ff ff"               // [1] int16 -1, inlined
            + " 06 ff ff"               // [2] uint16 65535, inlined
            + " 07 13 00"               // [3] int32 at offset 19
            + " 04 00 00"               // [4] null, inlined
            + " 00 00 00 80";           // int32 -2147483648

        assertThat(text(doc)).isEqualTo("[true, -1, 65535, -2147483648, null]");
        // The uint16 reads back as a signed INTEGER from the text: only the binary value keeps its type.
        assertThat(MysqlJson.toJsonText(hex(doc)).opaque()).isTrue();
        assertThat(MysqlJson.toJsonText(hex("02 01 00 07 00  05 ff ff")).opaque()).as("int16 only").isFalse();
    }

    @Test
    void objectsPrintKeysAndValuesInStorageOrder() {
        String doc = "00 03 00 1e 00"  // small object, 3 members, 30 bytes
            + " 19 00 01 00"            // key "a" at 25
            + " 1a 00 01 00"            // key "b" at 26
            + " 1b 00 03 00"            // key "abc" at 27
            + " 04 02 00"               // a: false
            + " 05 07 00"               // b: 7
            + " 04 00 00"               // abc: null
            + " 61 62 61 62 63";

        assertThat(text(doc)).isEqualTo("{\"a\": false, \"b\": 7, \"abc\": null}");
    }

    @Test
    void unicodeAndEscapedKeysPrintLikeStrings() {
        // keys "é" (2 bytes), "a\"b" (3 bytes), values 1 and "ключ"
        String doc = "00 02 00 20 00"
            + " 12 00 02 00"            // key "é" at 18
            + " 14 00 03 00"            // key a"b at 20
            + " 05 01 00"               // é: 1
            + " 0c 17 00"               // a"b: string at 23
            + " c3 a9"
            + " 61 22 62"
            + " 08 d0 ba d0 bb d1 8e d1 87";  // "ключ"

        assertThat(text(doc)).isEqualTo("{\"é\": 1, \"a\\\"b\": \"ключ\"}");
    }

    @Test
    void nestedContainersPrintRecursively() {
        // [{"k": [1, "x"]}, []]
        String doc = "02 02 00 26 00"       // outer array, 2 elements, 38 bytes
            + " 00 0a 00"                    // [0] small object at 10
            + " 02 22 00"                    // [1] small array at 34
            + " 01 00 18 00"                 // {  1 member, 24 bytes
            + " 0b 00 01 00"                 //    key "k" at 11
            + " 02 0c 00"                    //    k: small array at 12
            + " 6b"                          //    "k"
            + " 02 00 0c 00"                 //    [  2 elements, 12 bytes
            + " 05 01 00"                    //       1
            + " 0c 0a 00"                    //       string at 10
            + " 01 78"                       //       "x"
            + " 00 00 04 00";                // []

        assertThat(text(doc)).isEqualTo("[{\"k\": [1, \"x\"]}, []]");
    }

    @Test
    void nestingUpToMySqlsLimitOf100LevelsDecodesAndDeeperIsMalformed() {
        assertThat(MysqlJson.toText(nestedArrays(100))).isEqualTo("[".repeat(100) + "]".repeat(100));

        assertThatThrownBy(() -> MysqlJson.toText(nestedArrays(101)))
            .isInstanceOf(BinlogFormatException.class).hasMessageContaining("deeper than 100");
    }

    @Test
    void largeArraysInlineInt32AndReachValuesPast64KiB() {
        String big = "y".repeat(70_000);
        int header = 8 + 6 * 5;
        int stringAt = header;
        int stringSize = 3 + big.length();            // 70000 needs a 3-byte length
        int int64At = stringAt + stringSize;
        int objectAt = int64At + 8;
        byte[] object = hex("01 00 0c 00  0b 00 01 00  04 01 00  6b"); // {"k": true}, 12 bytes
        Bytes doc = new Bytes().u8(0x03).le(6, 4).le(objectAt + object.length, 4)
            .u8(0x0c).le(stringAt, 4)                   // [0] string at 38
            .u8(0x05).le(0xfffe, 4)                     // [1] int16 -2, inlined
            .u8(0x07).le(-100_000, 4)                   // [2] int32, inlined in the large format
            .u8(0x08).le(4_000_000_000L, 4)             // [3] uint32, inlined in the large format
            .u8(0x09).le(int64At, 4)                    // [4] int64 past 64 KiB
            .u8(0x00).le(objectAt, 4)                   // [5] small object past 64 KiB
            .varLength(big.length()).utf8(big)
            .le(Long.MIN_VALUE, 8)
            .raw(object);

        assertThat(int64At).isGreaterThan(0xffff);
        assertThat(MysqlJson.toText(doc.bytes()))
            .isEqualTo("[\"" + big + "\", -2, -100000, 4000000000, -9223372036854775808, {\"k\": true}]");
    }

    @Test
    void largeObjectsReachKeysPast64KiB() {
        String a = "a".repeat(40_000);
        String b = "b".repeat(40_000);
        String c = "c".repeat(40_000);
        int header = 8 + 3 * 6 + 3 * 5;
        int end = header + 3 * 40_000;
        Bytes doc = new Bytes().u8(0x01).le(3, 4).le(end + 4, 4)
            .le(header, 4).le(40_000, 2)
            .le(header + 40_000, 4).le(40_000, 2)
            .le(header + 80_000, 4).le(40_000, 2)       // third key starts past 64 KiB
            .u8(0x04).le(0x01, 4)                       // a: true
            .u8(0x0c).le(end, 4)                        // b: string past 64 KiB
            .u8(0x08).le(0xffffffffL, 4)                // c: uint32 max, inlined
            .utf8(a).utf8(b).utf8(c)
            .varLength(3).utf8("end");

        assertThat(MysqlJson.toText(doc.bytes()))
            .isEqualTo("{\"" + a + "\": true, \"" + b + "\": \"end\", \"" + c + "\": 4294967295}");
    }

    // --- opaque values ---------------------------------------------------------------------

    @Test
    void anOpaqueDatePrintsAsADateString() {
        // field type 10 DATE, 8 bytes: TIME_to_longlong_date_packed(2015-01-15)
        assertThat(text("0f 0a 08 00 00 00 00 00 1e 95 19")).isEqualTo("\"2015-01-15\"");
    }

    @Test
    void opaqueDatetimesAndTimestampsPrintWithSixFractionDigits() {
        // field type 12 DATETIME: TIME_to_longlong_datetime_packed(2015-01-15 23:24:25)
        assertThat(text("0f 0c 08 00 00 00 19 76 1f 95 19")).isEqualTo("\"2015-01-15 23:24:25.000000\"");
        // ... 2015-01-15 23:24:25.123456
        assertThat(text("0f 0c 08 40 e2 01 19 76 1f 95 19")).isEqualTo("\"2015-01-15 23:24:25.123456\"");
        // ... 0001-02-03 04:05:06.000007: the year keeps four digits
        assertThat(text("0f 0c 08 07 00 00 46 41 c6 03 00")).isEqualTo("\"0001-02-03 04:05:06.000007\"");
        // field type 7 TIMESTAMP: the same packed layout
        assertThat(text("0f 07 08 00 00 00 19 76 1f 95 19")).isEqualTo("\"2015-01-15 23:24:25.000000\"");
    }

    @Test
    void opaqueTimesPrintWithTheirSignAndSixFractionDigits() {
        // field type 11 TIME: TIME_to_longlong_time_packed
        assertThat(text("0f 0b 08 00 00 00 19 76 01 00 00")).isEqualTo("\"23:24:25.000000\"");
        assertThat(text("0f 0b 08 00 00 00 00 40 06 00 00")).isEqualTo("\"100:00:00.000000\"");
        assertThat(text("0f 0b 08 00 00 00 ff ff ff ff ff")).isEqualTo("\"-00:00:01.000000\"");
        assertThat(text("0f 0b 08 e0 5e f8 ff ff ff ff ff")).isEqualTo("\"-00:00:00.500000\"");
        assertThat(text("0f 0b 08 c1 bd f0 04 91 cb ff ff")).isEqualTo("\"-838:59:59.999999\"");
    }

    @Test
    void opaqueDecimalsPrintAsNumbersWithTheirScale() {
        // field type 246 NEWDECIMAL: precision, scale, decimal2bin
        assertThat(text("0f f6 05 05 02 80 7b 2d")).isEqualTo("123.45");
        assertThat(text("0f f6 04 03 02 7e cd")).isEqualTo("-1.50");
        assertThat(text("0f f6 04 03 02 80 05")).isEqualTo("0.05");
        assertThat(text("0f f6 03 01 00 87")).isEqualTo("7");
        assertThat(text("0f f6 0b 13 09 81 0d fb 38 d2 07 5b cd 15")).isEqualTo("1234567890.123456789");
        assertThat(text("0f f6 0d 16 01 7f 9d d2 60 6e d2 cb c1 03 15 fa")).isEqualTo("-98765432109876543210.5");
    }

    @Test
    void anOpaqueDecimalInsideAnObjectIsANumberMember() {
        String doc = "00 01 00 17 00"  // small object, 1 member, 23 bytes
            + " 0b 00 05 00"            // key "price" at 11
            + " 0f 10 00"               // price: opaque at 16
            + " 70 72 69 63 65"
            + " f6 05 05 02 80 7b 2d";

        assertThat(text(doc)).isEqualTo("{\"price\": 123.45}");
    }

    @Test
    void anOpaqueVarStringPrintsAsAPlainString() {
        assertThat(text("0f fd 03 61 22 63")).isEqualTo("\"a\\\"c\"");
    }

    @Test
    void otherOpaqueTypesPrintAsBase64WithTheirFieldType() {
        assertThat(text("0f fc 03 01 02 03")).isEqualTo("\"base64:type252:AQID\"");   // BLOB
        assertThat(text("0f 10 01 05")).isEqualTo("\"base64:type16:BQ==\"");          // BIT
        assertThat(text("0f 0f 00")).isEqualTo("\"base64:type15:\"");                 // empty VARCHAR
    }

    @Test
    void longBase64BreaksItsLineEvery76CharactersAsMySqlDoes() {
        byte[] data = new byte[60];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        byte[] doc = cat(hex("0f fc 3c"), data);

        assertThat(MysqlJson.toText(doc)).isEqualTo("\"base64:type252:"
            + "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4\\nOTo7\"");
    }

    @Test
    void malformedOpaqueTemporalAndDecimalValuesAreRejected() {
        assertMalformed("0f 0a 07 00 00 00 00 1e 95 19", "not 8");                  // DATE of 7 bytes
        assertMalformed("0f 0b 08 40 42 0f 00 00 00 00 00", "out of range");        // TIME .1000000
        assertMalformed("0f 0c 08 00 00 00 00 00 00 00 80", "negative");            // negative DATETIME
        assertMalformed("0f f6 04 05 02 80 7b", "takes 3 bytes");                   // DECIMAL(5,2) cut short
        assertMalformed("0f f6 04 03 04 80 05", "precision 3 and scale 4");
        assertMalformed("0f f6 01 05", "too few");
    }

    // --- malformed input -------------------------------------------------------------------

    @Test
    void unknownTypeBytesAreMalformed() {
        assertMalformed("0d 00", "unknown value type 0xd");
        assertMalformed("0e", "unknown value type 0xe");
        assertMalformed("10 00", "unknown value type 0x10");
        assertMalformed("ff", "unknown value type 0xff");
        // inside an array: element 0 has type 0x0d at offset 7
        assertMalformed("02 01 00 08 00  0d 07 00  00", "unknown value type 0xd");
        assertMalformed("04 03", "unknown value 0x3");
    }

    @Test
    void truncatedScalarsAreMalformed() {
        assertMalformed("04", "needs 1 bytes");
        assertMalformed("05 01", "needs 2 bytes");
        assertMalformed("07 01 02 03", "needs 4 bytes");
        assertMalformed("09 01 02 03 04 05 06 07", "needs 8 bytes");
        assertMalformed("0b 00 00 00 00", "needs 8 bytes");
        assertMalformed("0c 05 61 62", "says it has 5 bytes");
        assertMalformed("0c 80", "cut off");
        assertMalformed("0c", "cut off");
        assertMalformed("0c ff ff ff ff 7f", "exceeds 32 bits");
        assertMalformed("0f", "needs 1 bytes");
        assertMalformed("0f fc 04 01 02", "says it has 4 bytes");
    }

    @Test
    void truncatedOrInconsistentContainersAreMalformed() {
        assertMalformed("02 01 00", "needs 4 bytes");
        assertMalformed("01 01 00 00 00 0a 00", "needs 8 bytes");
        assertMalformed("02 01 00 0a 00 05 01 00", "says it has 10 bytes");
        assertMalformed("02 05 00 04 00", "more than its size");
        assertMalformed("00 01 00 08 00 05 01 00 00", "more than its size");
        // value offset 3 points back into the header; offset 9 past the array's 8 bytes
        assertMalformed("02 01 00 08 00  0c 03 00  00", "outside its value area");
        assertMalformed("02 01 00 08 00  0c 09 00  00", "outside its value area");
        // key "a" said to be at offset 2 (inside the header), then past the end
        assertMalformed("00 01 00 0c 00  02 00 01 00  05 01 00  61", "outside the key area");
        assertMalformed("00 01 00 0c 00  0b 00 02 00  05 01 00  61", "outside the key area");
        // a nested array that says it is larger than what its parent has left
        assertMalformed("02 01 00 0b 00  02 07 00  00 00 05 00", "says it has 5 bytes");
    }

    // --- helpers ---------------------------------------------------------------------------

    private static String text(String hex) {
        return MysqlJson.toText(hex(hex));
    }

    private static String doubleText(double d) {
        return MysqlJson.toText(new Bytes().u8(0x0b).le(Double.doubleToRawLongBits(d), 8).bytes());
    }

    private static void assertMalformed(String hex, String messagePart) {
        assertThatThrownBy(() -> text(hex))
            .isInstanceOf(BinlogFormatException.class)
            .hasMessageStartingWith("binary JSON: ")
            .hasMessageContaining(messagePart);
    }

    private static int significantDigits(String number) {
        String mantissa = number.split("[eE]")[0].replace("-", "").replace(".", "");
        String trimmed = mantissa.replaceAll("^0+", "").replaceAll("0+$", "");
        return Math.max(1, trimmed.length());
    }

    /** [[...[]...]]: {@code depth} small arrays, each holding the next. */
    private static byte[] nestedArrays(int depth) {
        byte[] inner = hex("00 00 04 00");
        for (int i = 1; i < depth; i++) {
            inner = new Bytes().le(1, 2).le(7 + inner.length, 2).u8(0x02).le(7, 2).raw(inner).bytes();
        }
        return cat(new byte[] {0x02}, inner);
    }

    private static byte[] hex(String hex) {
        String[] tokens = hex.trim().split("\\s+");
        byte[] out = new byte[tokens.length];
        for (int i = 0; i < tokens.length; i++) {
            out[i] = (byte) Integer.parseInt(tokens[i], 16);
        }
        return out;
    }

    private static byte[] repeat(char c, int n) {
        return String.valueOf(c).repeat(n).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] cat(byte[] a, byte[] b) {
        return new Bytes().raw(a).raw(b).bytes();
    }

    /** Little-endian byte building for the documents too long to write out. */
    private static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes u8(int v) {
            out.write(v);
            return this;
        }

        Bytes le(long v, int n) {
            for (int i = 0; i < n; i++) {
                out.write((int) (v >>> (8 * i)));
            }
            return this;
        }

        /** json_binary's variable-length length: 7 bits a byte, low bits first. */
        Bytes varLength(long v) {
            do {
                int b = (int) (v & 0x7f);
                v >>>= 7;
                out.write(v != 0 ? b | 0x80 : b);
            } while (v != 0);
            return this;
        }

        Bytes utf8(String s) {
            return raw(s.getBytes(StandardCharsets.UTF_8));
        }

        Bytes raw(byte[] b) {
            out.write(b, 0, b.length);
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
