package io.binlogapplier.binlog;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Byte-level rewrites of event bodies for filter.rename and filtered-out rows events. */
class EventRewriteTest {
    private static final int HEADER = EventEncoder.HEADER_LENGTH;

    @Test
    void aRenamedTableMapDiffersOnlyInItsSchemaNameAndLength() {
        byte[] original = HexFixtures.load("mariadb_table_map_people");
        byte[] expected = HexFixtures.load("mariadb_table_map_people_in_shop_replica");
        byte[] body = Arrays.copyOfRange(original, HEADER, original.length);

        byte[] renamed = EventEncoder.tableMapWithSchema(body, "shop_replica");

        assertThat(renamed).isEqualTo(Arrays.copyOfRange(expected, HEADER, expected.length));
        assertThat(body).as("the original body is left alone")
            .isEqualTo(Arrays.copyOfRange(original, HEADER, original.length));
    }

    @Test
    void theRenamedBodyEncodesToTheWholeExpectedEventAndDecodesToTheSameColumns() {
        TableMap map = ((BinlogEvent.TableMapped) new EventConverter(true)
            .convert(HexFixtures.load("mariadb_table_map_people"))).map();
        EventHeader header = EventConverter.header(new ByteReader(HexFixtures.load("mariadb_table_map_people")));

        TableMap renamed = map.withSchema("shop_replica");

        assertThat(EventEncoder.event(header, renamed.body(), false))
            .isEqualTo(HexFixtures.load("mariadb_table_map_people_in_shop_replica"));
        TableMap decoded = EventBodyParser.tableMap(renamed.body());
        assertThat(decoded.schema()).isEqualTo("shop_replica");
        assertThat(renamed.schema()).isEqualTo("shop_replica");
        assertThat(decoded.table()).isEqualTo("people");
        assertThat(decoded.tableId()).isEqualTo(120);
        assertThat(decoded.types()).containsExactly(map.types());
        assertThat(decoded.metas()).containsExactly(map.metas());
        assertThat(decoded.nullable()).isEqualTo(map.nullable());
    }

    @Test
    void aShorterAndANonAsciiSchemaNameAreWrittenWithTheirByteLength() {
        byte[] original = HexFixtures.load("mariadb_table_map_people");
        byte[] body = Arrays.copyOfRange(original, HEADER, original.length);

        byte[] shorter = EventEncoder.tableMapWithSchema(body, "s");
        byte[] accented = EventEncoder.tableMapWithSchema(body, "café");

        assertThat(shorter).hasSize(body.length - 3);
        assertThat(shorter[8]).isEqualTo((byte) 1);
        assertThat(Arrays.copyOfRange(shorter, 9, 11)).containsExactly('s', 0);
        assertThat(accented[8]).as("'café' is 5 bytes in UTF-8").isEqualTo((byte) 5);
        assertThat(EventBodyParser.tableMap(accented).schema()).isEqualTo("café");
        assertThat(Arrays.copyOfRange(accented, 15, accented.length))
            .isEqualTo(Arrays.copyOfRange(body, 14, body.length));
    }

    @Test
    void aBodyWithoutTheNulAfterItsSchemaNameIsRefused() {
        byte[] body = Arrays.copyOfRange(HexFixtures.load("mariadb_table_map_people"), HEADER, 33 + HEADER);
        body[13] = 'x'; // where the NUL after 'test' is

        assertThatThrownBy(() -> EventEncoder.tableMapWithSchema(body, "shop")).isInstanceOf(BinlogFormatException.class);
    }

    @Test
    void settingStatementEndChangesOnlyTheLowFlagsByte() {
        byte[] event = HexFixtures.load("mariadb_delete_rows_v1_nulls");
        byte[] body = Arrays.copyOfRange(event, HEADER, event.length);
        body[6] = 0; // as if STMT_END_F were not set

        byte[] ended = EventEncoder.rowsWithStatementEnd(body);

        assertThat(ended[6]).isEqualTo((byte) 1);
        ended[6] = 0;
        assertThat(ended).isEqualTo(body);
        assertThat(body[6]).as("the original body is left alone").isZero();
    }
}
