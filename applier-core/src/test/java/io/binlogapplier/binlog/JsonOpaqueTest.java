package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Opaque scalars inside MySQL binary JSON (issue 17, #2), from the fixture
 * {@code mysql80_write_rows_json_opaque}: one row per opaque type MySQL writes. The text is what
 * MySQL prints for the value ({@code SELECT doc} after {@code JSON_OBJECT('v', …)}); the
 * {@link JsonText#opaque} flag says that text alone would not give the target MySQL the same typed
 * value ({@code JSON_TYPE(doc->'$.v')} DECIMAL, DATE, TIME, DATETIME, TIMESTAMP, BLOB, BIT), so the
 * applier sends such rows as the binary value (a BINLOG statement) to a MySQL target.
 */
class JsonOpaqueTest {
    private static final List<Object[]> ROWS =
        RowsEventTestSupport.rows("mysql80_table_map_docs", "mysql80_write_rows_json_opaque").rows();

    @ParameterizedTest(name = "row {0}: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "1 | DECIMAL   | {\"v\": 1.50}",
        "2 | DATE      | {\"v\": \"2015-01-15\"}",
        "3 | TIME      | {\"v\": \"23:24:25.000000\"}",
        "4 | DATETIME  | {\"v\": \"2015-01-15 23:24:25.123456\"}",
        "5 | TIMESTAMP | {\"v\": \"2015-01-15 23:24:25.000000\"}",
        "6 | BLOB      | {\"v\": \"base64:type252:AQID\"}",
        "7 | BIT       | {\"v\": \"base64:type16:BQ==\"}",
    })
    void eachOpaqueTypePrintsAsMysqlPrintsItAndIsMarkedOpaque(int id, String type, String mysqlShows) {
        Object[] row = ROWS.get(id - 1);
        assertThat(row[0]).isEqualTo((long) id);
        JsonText doc = (JsonText) row[1];
        assertThat(doc.text()).isEqualTo(mysqlShows);
        assertThat(doc.opaque()).as(type + " must not travel as text to a MySQL target").isTrue();
    }

    @Test
    void documentsWithoutOpaqueValuesAreNotMarked() {
        List<Object[]> plain = RowsEventTestSupport.rows("mysql80_table_map_docs", "mysql80_write_rows_json").rows();
        // rows 1-3: objects, arrays, nesting, strings, integers, a double; no opaque value
        for (Object[] row : plain.subList(0, 3)) {
            JsonText j = (JsonText) row[1];
            assertThat(j.opaque()).as(j.text()).isFalse();
        }
    }
}
