package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

/**
 * Rows events (v1 23-25 from MariaDB, v2 30-32 from MySQL) decoded cell by cell with the TABLE_MAP
 * fixture that precedes them. Expected values are the SQL literals the fixtures were built from.
 */
class RowsEventTest {

    private static BinlogEvent.Rows rows(String tableMapFixture, String rowsFixture) {
        return RowsEventTestSupport.rows(tableMapFixture, rowsFixture);
    }

    private static TableMap map(String fixture) {
        return ((BinlogEvent.TableMapped) HexFixtures.event(fixture)).map();
    }

    private static BitSet bits(int... set) {
        BitSet b = new BitSet();
        for (int i : set) {
            b.set(i);
        }
        return b;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ integers

    @Test
    void integersDecodeAsSignedLongsAtTheirColumnWidth() {
        List<Object[]> r = rows("mysql80_table_map_ints", "mysql80_write_rows_ints").rows();

        assertThat(r).hasSize(4);
        assertThat(r.get(0)).containsExactly(-128L, 0L, -32768L, 0L, -8388608L, 0L, -2147483648L, 0L, Long.MIN_VALUE, 0L);
        assertThat(r.get(1)).containsExactly(127L, -1L, 32767L, -1L, 8388607L, -1L, 2147483647L, -1L, Long.MAX_VALUE, -1L);
        assertThat(r.get(2)).containsExactly(-1L, -128L, -1L, -32768L, -1L, -8388608L, -1L, -2147483648L, -1L,
            Long.MIN_VALUE);
    }

    @Test
    void bigintUnsignedAllOnesReadsAsMinusOne() {
        Object[] maxima = rows("mysql80_table_map_ints", "mysql80_write_rows_ints").rows().get(1);

        assertThat(maxima[9]).isEqualTo(-1L);
        assertThat(Long.toUnsignedString((Long) maxima[9])).isEqualTo("18446744073709551615");
    }

    @Test
    void rawIntegersBecomeUnsignedValuesThroughTheTableMapSignednessAndWidth() {
        TableMap m = map("mysql80_table_map_ints");
        List<Object[]> r = rows("mysql80_table_map_ints", "mysql80_write_rows_ints").rows();

        assertThat(m.unsigned()).containsExactly(false, true, false, true, false, true, false, true, false, true);
        String[] maxima = new String[10];
        String[] topBit = new String[10];
        for (int i = 0; i < 10; i++) {
            maxima[i] = asUnsignedIfFlagged(m, i, (Long) r.get(1)[i]);
            topBit[i] = asUnsignedIfFlagged(m, i, (Long) r.get(2)[i]);
        }
        assertThat(maxima).containsExactly("127", "255", "32767", "65535", "8388607", "16777215", "2147483647",
            "4294967295", "9223372036854775807", "18446744073709551615");
        assertThat(topBit).containsExactly("-1", "128", "-1", "32768", "-1", "8388608", "-1", "2147483648", "-1",
            "9223372036854775808");
    }

    private static String asUnsignedIfFlagged(TableMap m, int column, long raw) {
        if (!m.unsigned()[column]) {
            return Long.toString(raw);
        }
        int bitsWide = 8 * BinlogType.integerWidth(m.types()[column]);
        BigInteger mask = BigInteger.ONE.shiftLeft(bitsWide).subtract(BigInteger.ONE);
        return BigInteger.valueOf(raw).and(mask).toString();
    }

    @Test
    void v2ExtraInfoBlockWithAPartitionIdIsSkipped() {
        BinlogEvent.Rows e = rows("mysql80_table_map_ints", "mysql80_write_rows_ints");

        assertThat(e.kind()).isEqualTo(RowsKind.INSERT);
        assertThat(e.tableId()).isEqualTo(109);
        assertThat(e.flags()).isEqualTo(BinlogEvent.Rows.FLAG_STMT_END);
        assertThat(e.beforeColumns()).isEqualTo(bits(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
        assertThat(e.rows().get(3)[1]).isEqualTo(1L);
    }

    @Test
    void nullBitmapSpanningTwoBytesMarksTheFirstAndTenthColumns() {
        Object[] row = rows("mysql80_table_map_ints", "mysql80_write_rows_ints").rows().get(3);

        assertThat(row).containsExactly(null, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, null);
    }

    // ------------------------------------------------------------------ FLOAT, DOUBLE, DECIMAL

    @Test
    void floatsAndDoublesKeepNegativeZeroDenormalsAndExtremesBitExact() {
        List<Object[]> r = rows("mariadb_table_map_reals", "mariadb_write_rows_v1_reals").rows();

        assertThat(Float.floatToRawIntBits((Float) r.get(0)[0])).as("FLOAT -0.0").isEqualTo(0x80000000);
        assertThat((Double) r.get(0)[1]).isEqualTo(Double.MAX_VALUE);
        assertThat((Float) r.get(1)[0]).as("denormal FLOAT").isEqualTo(Float.MIN_VALUE);
        assertThat((Double) r.get(1)[1]).as("denormal DOUBLE").isEqualTo(Double.MIN_VALUE);
        assertThat((Float) r.get(2)[0]).isEqualTo(Float.MAX_VALUE);
        assertThat(Double.doubleToRawLongBits((Double) r.get(2)[1])).as("DOUBLE -0.0").isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void decimalsDecodeExactlyWithTheColumnScale() {
        BinlogEvent.Rows e = rows("mariadb_table_map_reals", "mariadb_write_rows_v1_reals");
        List<Object[]> r = e.rows();

        assertThat(e.header().type()).isEqualTo(EventConverter.WRITE_ROWS_V1);
        assertThat(r.get(0)[2]).isEqualTo(
            new BigDecimal("-12345678901234567890123456789012345.123456789012345678901234567890"));
        assertThat(r.get(0)[3]).isEqualTo(new BigDecimal("0.0001"));
        assertThat(r.get(1)[2]).isEqualTo(new BigDecimal("0.000000000000000000000000000000"));
        assertThat(((BigDecimal) r.get(1)[2]).scale()).isEqualTo(30);
        assertThat(r.get(1)[3]).isEqualTo(new BigDecimal("0.0000"));
        assertThat(r.get(2)[2]).isEqualTo(new BigDecimal("0.000000000000000000000000000001"));
        assertThat(r.get(2)[3]).isEqualTo(new BigDecimal("-999999.9999"));
    }

    // ------------------------------------------------------------------ TIME

    @Test
    void timeOfEveryPrecisionDecodesNegativeAndBeyond24HourValues() {
        List<Object[]> r = rows("mysql80_table_map_times", "mysql80_write_rows_times").rows();

        //                  TIME(0)        TIME(1)          TIME(2)           TIME(3)
        //                  TIME(4)        TIME(5)          TIME(6)
        assertThat(r.get(0)).containsExactly("-00:00:01", "-12:34:56.5", "-12:34:56.05", "-12:34:56.500",
            "-00:00:00.0001", "-00:00:00.00001", "-00:00:00.000001");
        assertThat(r.get(1)).containsExactly("-838:59:59", "-00:00:00.1", "-838:59:58.99", "-00:00:00.001",
            "838:59:58.9999", "-838:59:59.00000", "-838:59:59.000000");
        assertThat(r.get(2)).containsExactly("838:59:59", "25:00:00.9", "100:00:00.01", "48:00:00.999",
            "123:45:06.7890", "500:00:00.12345", "838:59:59.000000");
        assertThat(r.get(3)).containsExactly("00:00:00", "00:00:00.0", "-00:00:01.00", "12:34:56.789",
            "00:00:00.0000", "00:00:00.00001", "-12:34:56.500000");
    }

    @Test
    void fractionalSecondsUseAsciiDigitsWhateverTheDefaultLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("ar-EG")); // formats %d with U+0660.. digits
            Object[] times = rows("mysql80_table_map_times", "mysql80_write_rows_times").rows().get(0);
            Object[] moments = rows("mariadb_table_map_moments", "mariadb_write_rows_v1_moments").rows().get(0);

            assertThat(times[6]).isEqualTo("-00:00:00.000001");
            assertThat(moments[2]).isEqualTo("2024-02-29 13:00:00.000100");
            assertThat(moments[5]).isEqualTo("2038-01-19 03:14:07.999999");
        } finally {
            Locale.setDefault(saved);
        }
    }

    // ------------------------------------------------------------------ DATETIME, TIMESTAMP, DATE, YEAR

    @Test
    void datetimeTimestampDateAndYearKeepFractionsAndZeroDates() {
        List<Object[]> r = rows("mariadb_table_map_moments", "mariadb_write_rows_v1_moments").rows();

        //                  DATETIME, DATETIME(3), DATETIME(6), TIMESTAMP, TIMESTAMP(3), TIMESTAMP(6), DATE, YEAR
        assertThat(r.get(0)).containsExactly("2024-02-29 13:00:00", "2024-02-29 13:00:00.123",
            "2024-02-29 13:00:00.000100", "2024-02-29 13:00:00", "1970-01-01 00:00:01.500",
            "2038-01-19 03:14:07.999999", "2024-02-29", 2155);
    }

    @Test
    void zeroDatesAndTheZeroTimestampDecodeAsZeroLiteralsNotTheEpoch() {
        Object[] zeros = rows("mariadb_table_map_moments", "mariadb_write_rows_v1_moments").rows().get(1);

        assertThat(zeros).containsExactly("0000-00-00 00:00:00", "0000-00-00 00:00:00.000",
            "0000-00-00 00:00:00.000000", "0000-00-00 00:00:00", "0000-00-00 00:00:00.000",
            "0000-00-00 00:00:00.000000", "0000-00-00", 0);
    }

    @Test
    void partialZeroDatesDatetimeMaximumAndYear1901AreKept() {
        Object[] r = rows("mariadb_table_map_moments", "mariadb_write_rows_v1_moments").rows().get(2);

        assertThat(r).containsExactly("2020-00-15 00:00:00", "2020-01-00 23:59:59.999", "9999-12-31 23:59:59.999999",
            "1970-01-01 00:00:01", "2024-02-29 13:00:00.001", "2024-02-29 12:59:59.000001", "2020-00-15", 1901);
    }

    // ------------------------------------------------------------------ BIT, ENUM, SET, strings

    @Test
    void bitCellsAreBigEndianBytesOfTheColumnWidth() {
        List<Object[]> r = rows("mysql80_table_map_bits", "mysql80_write_rows_bits").rows();

        assertThat((byte[]) r.get(0)[0]).containsExactly(0x01);
        assertThat((byte[]) r.get(0)[1]).containsExactly(0x55);
        assertThat((byte[]) r.get(0)[2]).containsExactly(0x80, 0, 0, 0, 0, 0, 0, 0x01);
        assertThat((byte[]) r.get(1)[0]).containsExactly(0x00);
        assertThat((byte[]) r.get(1)[2]).containsExactly(0, 0, 0, 0, 0, 0, 0, 0);
        assertThat((byte[]) r.get(2)[1]).containsExactly(0x7f);
        assertThat((byte[]) r.get(2)[2]).containsExactly(0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef);
    }

    @Test
    void enumIsItsIndexIncludingTheZeroErrorValueAndSetKeepsIts64thMember() {
        List<Object[]> r = rows("mysql80_table_map_bits", "mysql80_write_rows_bits").rows();

        assertThat(r.get(0)[3]).isEqualTo(2);
        assertThat(r.get(1)[3]).isEqualTo(0);
        assertThat(r.get(2)[3]).isEqualTo(3);
        assertThat(r.get(0)[4]).isEqualTo(Long.MIN_VALUE);
        assertThat(r.get(1)[4]).isEqualTo(0L);
        assertThat(r.get(2)[4]).isEqualTo(Long.MIN_VALUE | 1L);
    }

    @Test
    void charLongerThan255BytesHasATwoByteLengthAndEnumSetWidthsFollowTheMetadata() {
        Object[] row = rows("mysql80_table_map_string_types", "mysql80_write_rows_string_types").rows().get(0);

        assertThat((byte[]) row[0]).isEqualTo(utf8("abc"));
        assertThat((byte[]) row[1]).hasSize(280).isEqualTo(utf8("\uD83D\uDE00".repeat(70)));
        assertThat(row[2]).isEqualTo(2);
        assertThat(row[3]).isEqualTo(Long.MIN_VALUE);
        assertThat(row[4]).isEqualTo(3L);
        assertThat((byte[]) row[5]).isEqualTo(utf8("x".repeat(255)));
        assertThat(row[6]).isEqualTo(300);
    }

    // ------------------------------------------------------------------ NULLs and partial images

    @Test
    void minimalUpdateImagesHoldOnlyThePresentColumnsAndNullBitsCountOnlyThose() {
        BinlogEvent.Rows e = rows("mysql80_table_map_people", "mysql80_update_rows_minimal");

        assertThat(e.kind()).isEqualTo(RowsKind.UPDATE);
        assertThat(e.beforeColumns()).isEqualTo(bits(0));
        assertThat(e.afterColumns()).isEqualTo(bits(2, 3));
        List<Object[]> r = e.rows();
        assertThat(r).hasSize(4);
        assertThat(r.get(0)).containsExactly(1L, null, null, null);
        assertThat(r.get(1)).containsExactly(null, null, 31L, null); // note is NULL; name is absent
        assertThat(r.get(2)).containsExactly(2L, null, null, null);
        assertThat(r.get(3)[2]).isNull(); // age is NULL
        assertThat((byte[]) r.get(3)[3]).isEqualTo(utf8("hi"));
    }

    @Test
    void v1DeleteWithFullImageReadsNullsAndTwoByteVarcharLengths() {
        BinlogEvent.Rows e = rows("mariadb_table_map_people", "mariadb_delete_rows_v1_nulls");

        assertThat(e.kind()).isEqualTo(RowsKind.DELETE);
        assertThat(e.header().type()).isEqualTo(EventConverter.DELETE_ROWS_V1);
        assertThat(e.beforeColumns()).isEqualTo(bits(0, 1, 2, 3));
        assertThat(e.afterColumns()).isEqualTo(e.beforeColumns());
        List<Object[]> r = e.rows();
        assertThat(r).hasSize(2);
        assertThat(r.get(0)[0]).isEqualTo(7L);
        assertThat(r.get(0)[1]).isNull();
        assertThat(r.get(0)[2]).isNull();
        assertThat((byte[]) r.get(0)[3]).isEqualTo(utf8("bye"));
        assertThat(r.get(1)[0]).isEqualTo(8L);
        assertThat((byte[]) r.get(1)[1]).isEqualTo("Zo\u00eb".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(r.get(1)[2]).as("TINYINT UNSIGNED 255, raw").isEqualTo(-1L);
        assertThat((byte[]) r.get(1)[3]).isEmpty();
    }

    @Test
    void rowsEventReportsItsBodySize() {
        byte[] event = HexFixtures.load("mysql80_write_rows_t1");
        BinlogEvent.Rows e = rows("mysql80_table_map_t1", "mysql80_write_rows_t1");

        assertThat(e.sizeBytes()).isEqualTo(event.length - 19);
        assertThat(e.rows()).hasSize(1);
        assertThat(e.rows().get(0)[0]).isEqualTo(1L);
        assertThat((byte[]) e.rows().get(0)[1]).isEqualTo(utf8("h\u00e9llo"));
    }
}
