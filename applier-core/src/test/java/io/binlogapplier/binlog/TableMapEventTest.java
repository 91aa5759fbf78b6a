package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;

import org.junit.jupiter.api.Test;

/** TABLE_MAP_EVENT (19): types, metadata, nullability and optional metadata from byte fixtures. */
class TableMapEventTest {

    private static TableMap map(String fixture) {
        return ((BinlogEvent.TableMapped) HexFixtures.event(fixture)).map();
    }

    @Test
    void yearColumnDoesNotShiftTheUnsignedFlagOfTheNextInt() {
        TableMap m = map("mysql80_table_map_full_metadata");

        //                                      y      u_int u_big s_tiny price  ratio  name   u_small m      d      u_last
        assertThat(m.unsigned()).containsExactly(false, true, true, false, false, false, false, true, false, false, true);
    }

    @Test
    void signednessOfTheNinthNumericColumnComesFromTheSecondBytesMostSignificantBit() {
        TableMap m = map("mysql80_table_map_full_metadata");

        assertThat(m.types()[10]).isEqualTo(BinlogType.LONG);
        assertThat(m.unsigned()[10]).isTrue();
        assertThat(m.unsigned()[9]).as("DOUBLE d, the eighth numeric column").isFalse();
    }

    @Test
    void fullMetadataTableMapGivesTypesMetadataNamesAndNullability() {
        TableMap m = map("mysql80_table_map_full_metadata");

        assertThat(m.tableId()).isEqualTo(4_294_967_411L);
        assertThat(m.schema()).isEqualTo("shop");
        assertThat(m.table()).isEqualTo("metrics");
        assertThat(m.types()).containsExactly(BinlogType.YEAR, BinlogType.LONG, BinlogType.LONGLONG, BinlogType.TINY,
            BinlogType.NEWDECIMAL, BinlogType.FLOAT, BinlogType.VARCHAR, BinlogType.SHORT, BinlogType.INT24,
            BinlogType.DOUBLE, BinlogType.LONG);
        assertThat(m.metas()[4]).as("DECIMAL(10,2): precision in the low byte, scale in the high").isEqualTo(0x020a);
        assertThat(m.metas()[5]).isEqualTo(4);
        assertThat(m.metas()[6]).isEqualTo(80);
        assertThat(m.metas()[9]).isEqualTo(8);
        assertThat(m.columnNames()).containsExactly("y", "u_int", "u_big", "s_tiny", "price", "ratio", "name",
            "u_small", "m", "d", "u_last");
        BitSet nullable = new BitSet();
        nullable.set(0, 11);
        nullable.clear(1);
        assertThat(m.nullable()).isEqualTo(nullable);
    }

    @Test
    void stringMetadataResolvesCharEnumAndSetWithTheirLengths() {
        TableMap m = map("mysql80_table_map_string_types");

        assertThat(m.types()).containsExactly(BinlogType.STRING, BinlogType.STRING, BinlogType.ENUM, BinlogType.SET,
            BinlogType.SET, BinlogType.STRING, BinlogType.ENUM);
        assertThat(m.lengths()).containsExactly(10, 400, 1, 8, 1, 255, 2);
    }

    @Test
    void utf8mb4Char100IsA400ByteCharThroughTheInvertedHighLengthBits() {
        TableMap m = map("mysql80_table_map_string_types");

        assertThat(m.metas()[1]).isEqualTo(0xee90);
        assertThat(m.types()[1]).isEqualTo(BinlogType.STRING);
        assertThat(m.lengths()[1]).isEqualTo(400);
    }

    @Test
    void minimalMetadataWithoutNumericColumnsHasNeitherNamesNorSignedness() {
        TableMap m = map("mysql80_table_map_string_types");

        assertThat(m.columnNames()).isNull();
        assertThat(m.unsigned()).isNull();
    }

    @Test
    void tableMapWithoutOptionalMetadataStillGivesTypesAndMetadata() {
        TableMap m = map("mariadb_table_map_reals");

        assertThat(m.schema()).isEqualTo("test");
        assertThat(m.types()).containsExactly(BinlogType.FLOAT, BinlogType.DOUBLE, BinlogType.NEWDECIMAL,
            BinlogType.NEWDECIMAL);
        assertThat(m.metas()).containsExactly(4, 8, 65 | 30 << 8, 10 | 4 << 8);
        assertThat(m.columnNames()).isNull();
        assertThat(m.unsigned()).isNull();
    }

    @Test
    void aRepeatedTableMapIsTheObjectDecodedBeforeAndAChangedOneIsDecodedAgain() {
        EventConverter c = new EventConverter(true);
        byte[] event = HexFixtures.load("mysql80_table_map_people");
        TableMap first = ((BinlogEvent.TableMapped) c.convert(event)).map();

        TableMap again = ((BinlogEvent.TableMapped) c.convert(event.clone())).map();
        byte[] renamed = event.clone();
        int nameAt = 19 + 8 + 1; // header, table id and flags, schema length
        renamed[nameAt] = (byte) (renamed[nameAt] ^ 0x20); // flip the case of the schema's first letter
        TableMap changed = ((BinlogEvent.TableMapped) c.convert(renamed)).map();

        assertThat(again).isSameAs(first);
        assertThat(changed).isNotSameAs(first);
        assertThat(changed.schema()).isNotEqualTo(first.schema()).isEqualToIgnoringCase(first.schema());
        assertThat(changed.tableId()).isEqualTo(first.tableId());
    }
}
