package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * MySQL binary JSON cells (type 245) in rows events, turned into text by {@link MysqlJson}: the
 * text MySQL prints for the same value ({@code SELECT doc}), members in storage order (keys
 * sorted by length, then bytes), {@code ", "} and {@code ": "} between them.
 */
class JsonCellTest {

    private static List<Object[]> docs() {
        return RowsEventTestSupport.rows("mysql80_table_map_docs", "mysql80_write_rows_json").rows();
    }

    private static String doc(int id) {
        Object[] row = docs().get(id - 1);
        assertThat(row[0]).isEqualTo((long) id);
        assertThat(row[1]).isInstanceOf(JsonText.class);
        return ((JsonText) row[1]).text();
    }

    @Test
    void smallObjectArrayAndNestedValuesPrintAsMySqlPrintsThemInStorageOrder() {
        assertThat(doc(1)).isEqualTo("{\"a\": 1, \"b\": \"x\"}");
        assertThat(doc(2)).isEqualTo("[1, \"two\", 3.5, null]");
        // "n" sorts before "arr": shorter keys first, as MySQL stores and prints them
        assertThat(doc(3)).isEqualTo("{\"k\": {\"n\": -32768, \"arr\": [true, false, null]}}");
    }

    @Test
    void everyNumberTypeKeepsItsValueAndADoublePrintsInItsShortestForm() {
        assertThat(doc(4)).isEqualTo("[-32768, 2147483647, -9223372036854775808, 18446744073709551615, 1.5e300]");
    }

    @Test
    void topLevelLiteralsPrintAsJsonLiterals() {
        assertThat(doc(5)).isEqualTo("true");
        assertThat(doc(6)).isEqualTo("false");
        assertThat(doc(7)).isEqualTo("null");
    }

    @Test
    void aFourByteUtf8CharacterInAStringSurvives() {
        assertThat(doc(8)).isEqualTo("{\"s\": \"\uD83D\uDE00 ok\"}");
    }

    @Test
    void anOpaqueDatetimeKeepsAllSixFractionDigits() {
        assertThat(doc(9)).isEqualTo("{\"when\": \"2024-02-29 13:00:00.000100\"}");
    }

    @Test
    void anEmptyJsonValueReadsAsJsonNull() {
        assertThat(doc(10)).isEqualTo("null");
    }

    @Test
    void largeFormatObjectWithAValueOffsetPast64KiBDecodes() {
        BinlogEvent.Rows e = RowsEventTestSupport.rows("mysql80_table_map_docs", "mysql80_write_rows_json_large_object");

        String text = ((JsonText) e.rows().get(0)[1]).text();
        assertThat(text).isEqualTo("{\"n\": 1, \"big\": \"" + "x".repeat(70000) + "\", \"tail\": \"end\"}");
    }

    @Test
    void aNegativeTimeInsideJsonKeepsItsSignOnTheWholeValue() {
        BinlogEvent.Rows e = RowsEventTestSupport.rows("mysql80_table_map_docs", "mysql80_write_rows_json_negative_time");

        assertThat(((JsonText) e.rows().get(0)[1]).text()).isEqualTo("{\"t\": \"-00:00:01.000000\"}");
    }

    @Test
    void aCellThatIsNotBinaryJsonFailsAsAFormatErrorNamingTheColumn() {
        TableMap map = ((BinlogEvent.TableMapped) HexFixtures.event("mysql80_table_map_docs")).map();
        // 4-byte length 3, then a small array that claims 2 elements but is cut off
        byte[] cell = {3, 0, 0, 0, 0x02, 0x02, 0x00};

        assertThatThrownBy(() -> RowImageDecoder.decodeCell(new ByteReader(cell), BinlogType.JSON, 4, 0, map, 1))
            .isInstanceOf(BinlogFormatException.class)
            .hasMessageContaining("column 2 of ")
            .hasMessageContaining("holds binary JSON that could not be decoded: binary JSON: small array");
    }
}
