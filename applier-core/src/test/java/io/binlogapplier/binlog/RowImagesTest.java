package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RowImagesTest {
    private static final int HEADER = 19;

    /** Every rows fixture, after its table map: every column type the decoder knows is in one of them. */
    @ParameterizedTest
    @CsvSource({
        "mariadb_table_map_moments, mariadb_write_rows_v1_moments",
        "mariadb_table_map_people, mariadb_delete_rows_v1_nulls",
        "mariadb_table_map_reals, mariadb_write_rows_v1_reals",
        "mysql80_table_map_bits, mysql80_write_rows_bits",
        "mysql80_table_map_docs, mysql80_write_rows_json",
        "mysql80_table_map_docs, mysql80_write_rows_json_large_object",
        "mysql80_table_map_docs, mysql80_write_rows_json_negative_time",
        "mysql80_table_map_docs, mysql80_write_rows_json_opaque",
        "mysql80_table_map_ints, mysql80_write_rows_ints",
        "mysql80_table_map_people, mysql80_update_rows_minimal",
        "mysql80_table_map_string_types, mysql80_write_rows_string_types",
        "mysql80_table_map_t1, mysql80_write_rows_t1",
        "mysql80_table_map_times, mysql80_write_rows_times",
    })
    void countingTheImagesReadsExactlyTheBytesDecodingReadsAndTheValuesAreTheSame(String map, String rows) {
        BinlogEvent.Rows eager = convert(map, rows, false);
        BinlogEvent.Rows lazy = convert(map, rows, true);

        RowImages images = (RowImages) lazy.rows();
        assertThat(images.size()).isEqualTo(eager.rows().size()).isPositive();
        assertThat(images.isDecoded()).as("counting decodes nothing").isFalse();
        for (int i = 0; i < eager.rows().size(); i++) {
            assertThat(Arrays.deepToString(images.get(i))).isEqualTo(Arrays.deepToString(eager.rows().get(i)));
        }
        assertThat(images.isDecoded()).isTrue();
        assertThat(lazy.beforeColumns()).isEqualTo(eager.beforeColumns());
        assertThat(lazy.afterColumns()).isEqualTo(eager.afterColumns());
    }

    @Test
    void aBodyCutShortInsideACellIsRefusedWhenTheImagesAreCountedNotLaterWhenTheyAreRead() {
        byte[] mapEvent = HexFixtures.load("mysql80_table_map_string_types");
        TableMap map = EventBodyParser.tableMap(Arrays.copyOfRange(mapEvent, HEADER, mapEvent.length));
        byte[] rows = HexFixtures.load("mysql80_write_rows_string_types");
        byte[] cut = Arrays.copyOfRange(rows, HEADER, rows.length - 3);

        assertThatThrownBy(() -> EventBodyParser.rows(null, cut, RowsKind.INSERT, true, id -> map, true, true))
            .isInstanceOf(BinlogFormatException.class).hasMessageContaining("ends early");
    }

    private static BinlogEvent.Rows convert(String map, String rows, boolean lazy) {
        EventConverter c = new EventConverter(true, lazy);
        c.convert(HexFixtures.load(map));
        BinlogEvent e = c.convert(HexFixtures.load(rows));
        List<Object[]> images = ((BinlogEvent.Rows) e).rows();
        assertThat(images instanceof RowImages).isEqualTo(lazy);
        return (BinlogEvent.Rows) e;
    }
}
