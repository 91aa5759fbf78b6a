package io.binlogapplier.apply;

import io.binlogapplier.binlog.BinlogType;
import io.binlogapplier.binlog.JsonText;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlLiteralTest {
    private static String lit(Object v, int type, boolean unsigned) {
        StringBuilder sb = new StringBuilder();
        SqlLiteral.append(sb, v, type, unsigned);
        return sb.toString();
    }

    @Test
    void integersAreDecimalAndUnsignedColumnsReadTheirWidthUnsigned() {
        assertThat(lit(-5L, BinlogType.LONG, false)).isEqualTo("-5");
        assertThat(lit(-1L, BinlogType.TINY, true)).isEqualTo("255");
        assertThat(lit(-1L, BinlogType.LONG, true)).isEqualTo("4294967295");
        assertThat(lit(-1L, BinlogType.LONGLONG, true)).isEqualTo("18446744073709551615");
        assertThat(lit(Long.MIN_VALUE, BinlogType.LONGLONG, false)).isEqualTo("-9223372036854775808");
    }

    @Test
    void aSetMaskIsUnsigned() {
        assertThat(lit(Long.MIN_VALUE | 1, BinlogType.SET, false)).isEqualTo("9223372036854775809");
        assertThat(lit(6L, BinlogType.SET, false)).isEqualTo("6");
    }

    @Test
    void doublesAlwaysCarryAnExponentAndReadBackTheSameDouble() {
        assertThat(lit(1.5, BinlogType.DOUBLE, false)).isEqualTo("1.5E0");
        assertThat(lit(0.1 + 0.2, BinlogType.DOUBLE, false)).isEqualTo("0.30000000000000004E0");
        assertThat(lit(1e-300, BinlogType.DOUBLE, false)).isEqualTo("1.0E-300");
        assertThat(lit(-2.5e20, BinlogType.DOUBLE, false)).isEqualTo("-2.5E20");
        for (double d : new double[] {Math.PI, Double.MIN_VALUE, Double.MAX_VALUE, -0.0, 123456789.125}) {
            String s = lit(d, BinlogType.DOUBLE, false);
            assertThat(Double.parseDouble(s)).isEqualTo(d);
        }
    }

    @Test
    void aFloatIsWrittenAsTheDoubleItWidensToSoItNarrowsBackToItself() {
        float f = 1.1f;
        String s = lit(f, BinlogType.FLOAT, false);
        assertThat(s).isEqualTo("1.100000023841858E0");
        assertThat((float) Double.parseDouble(s)).isEqualTo(f);
        for (float x : new float[] {Float.MIN_VALUE, Float.MAX_VALUE, 3.4028235e38f, 1.0e-45f, 16777217f, 0.3f}) {
            assertThat((float) Double.parseDouble(lit(x, BinlogType.FLOAT, false))).isEqualTo(x);
        }
    }

    @Test
    void notANumberHasNoLiteral() {
        assertThatThrownBy(() -> lit(Double.NaN, BinlogType.DOUBLE, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void decimalsArePlainAndBytesHex() {
        assertThat(lit(new BigDecimal("1E+3"), BinlogType.NEWDECIMAL, false)).isEqualTo("1000");
        assertThat(lit(new BigDecimal("-0.000100"), BinlogType.NEWDECIMAL, false)).isEqualTo("-0.000100");
        assertThat(lit(new byte[] {0, (byte) 0xff, 'a', '\''}, BinlogType.VARCHAR, false)).isEqualTo("X'00ff6127'");
        assertThat(lit(new byte[0], BinlogType.BLOB, false)).isEqualTo("X''");
    }

    @Test
    void textIsQuotedOnlyWhenNothingInItNeedsEscapingElseItIsHexInTheConnectionsCharacterSet() {
        assertThat(lit("2024-02-29 23:59:59.123456", BinlogType.DATETIME2, false)).isEqualTo("'2024-02-29 23:59:59.123456'");
        assertThat(lit("-838:59:59", BinlogType.TIME2, false)).isEqualTo("'-838:59:59'");
        assertThat(lit("it's", BinlogType.DATETIME2, false)).isEqualTo("_utf8mb4 X'69742773'");
        assertThat(lit("a\\b", BinlogType.DATETIME2, false)).isEqualTo("_utf8mb4 X'615c62'");
        String json = "{\"k\": \"é\"}";
        StringBuilder hex = new StringBuilder();
        for (byte b : json.getBytes(StandardCharsets.UTF_8)) {
            hex.append(String.format("%02x", b));
        }
        assertThat(lit(new JsonText(json), BinlogType.JSON, false)).isEqualTo("_utf8mb4 X'" + hex + "'");
    }

    @Test
    void nullAndEnumIndexes() {
        assertThat(lit(null, BinlogType.LONG, false)).isEqualTo("NULL");
        assertThat(lit(3, BinlogType.ENUM, false)).isEqualTo("3");
    }
}
