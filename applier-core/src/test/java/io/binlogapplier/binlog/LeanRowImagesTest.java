package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Lean row images on the annotated rows fixtures: before images cut down to the key columns, UPDATE
 * after images to the columns that changed; the exact bytes written, the rewritten event decoded
 * again, the bytes counted as left out, and the cases that must come back unchanged.
 */
class LeanRowImagesTest {

    private static TableMap map(String fixture) {
        return ((BinlogEvent.TableMapped) HexFixtures.event(fixture)).map();
    }

    private static byte[] event(String fixture) {
        return HexFixtures.load(fixture);
    }

    private static int type(byte[] event) {
        return event[4] & 0xFF;
    }

    private static byte[] body(byte[] event) {
        return Arrays.copyOfRange(event, EventEncoder.HEADER_LENGTH, event.length);
    }

    private static BitSet bits(int... set) {
        BitSet b = new BitSet();
        for (int i : set) {
            b.set(i);
        }
        return b;
    }

    /** Before images cut to {@code keep}, after images whole. */
    private static byte[] keyOnly(int type, byte[] body, TableMap map, BitSet keep) {
        LeanRowImages.Result r = LeanRowImages.trim(type, body, map, keep, null);
        assertThat(r.afterBytesDropped()).isZero();
        assertThat(r.beforeBytesDropped()).isEqualTo(body.length - r.body().length);
        return r.body();
    }

    /** Expected bytes, written as the fixtures are (hex bytes separated by whitespace). */
    private static byte[] hex(String s) {
        return HexFixtures.parse(s, "expected bytes");
    }

    /** The rewritten body decoded as the rows event of {@code type} it is. */
    private static BinlogEvent.Rows decode(int type, byte[] body, TableMap map, RowsKind kind) {
        EventHeader h = new EventHeader(0, type, 7, EventEncoder.HEADER_LENGTH + body.length, 0, 0);
        boolean v2 = type >= EventConverter.WRITE_ROWS_V2;
        return EventBodyParser.rows(h, body, kind, v2, id -> map);
    }

    @Test
    void deleteBeforeImagesKeepOnlyThePrimaryKey() {
        byte[] e = event("mariadb_delete_rows_v1_nulls");
        TableMap people = map("mariadb_table_map_people");

        byte[] lean = keyOnly(type(e), body(e), people, bits(0));

        assertThat(lean).containsExactly(hex(
            "78 00 00 00 00 00  01 00  04  01"   // table id, flags, 4 columns, present: id
            + " 00 07 00 00 00"                    // row 1: no NULL, id 7
            + " 00 08 00 00 00"));                 // row 2: no NULL, id 8
        BinlogEvent.Rows rows = decode(type(e), lean, people, RowsKind.DELETE);
        assertThat(rows.beforeColumns()).isEqualTo(bits(0));
        assertThat(rows.rows()).hasSize(2);
        assertThat(rows.rows().get(0)).containsExactly(7L, null, null, null);
        assertThat(rows.rows().get(1)).containsExactly(8L, null, null, null);
    }

    @Test
    void updateKeepsItsAfterImagesWhole() {
        byte[] e = event("mariadb_update_rows_v1_people_full");
        TableMap people = map("mariadb_table_map_people");
        List<Object[]> full = decode(type(e), body(e), people, RowsKind.UPDATE).rows();

        byte[] lean = keyOnly(type(e), body(e), people, bits(0));

        assertThat(lean).containsExactly(hex(
            "78 00 00 00 00 00  01 00  04  01  0f" // before images: id; after images: all four
            + " 00 07 00 00 00"                     // before 1: id 7
            + " 06 07 00 00 00 02 00 68 69"         // after 1 as the source wrote it
            + " 00 08 00 00 00"                     // before 2: id 8
            + " 00 08 00 00 00 03 5a 6f eb 1e 00 00")); // after 2 as the source wrote it
        BinlogEvent.Rows rows = decode(type(e), lean, people, RowsKind.UPDATE);
        assertThat(rows.beforeColumns()).isEqualTo(bits(0));
        assertThat(rows.afterColumns()).isEqualTo(bits(0, 1, 2, 3));
        assertThat(rows.rows()).hasSize(4);
        assertThat(rows.rows().get(0)).containsExactly(7L, null, null, null);
        assertThat(rows.rows().get(1)).isEqualTo(full.get(1));
        assertThat(rows.rows().get(2)).containsExactly(8L, null, null, null);
        assertThat(rows.rows().get(3)).isEqualTo(full.get(3));
    }

    @Test
    void aVersion2EventKeepsItsExtraInfo() {
        byte[] e = event("mysql80_update_rows_full");
        TableMap people = map("mysql80_table_map_people");

        byte[] lean = keyOnly(type(e), body(e), people, bits(0));

        assertThat(lean).containsExactly(hex(
            "73 00 00 00 00 00  01 00  07 00 01 02 00 01 00  04  01  0f"
            + " 00 01 00 00 00"                            // before: id 1
            + " 08 01 00 00 00 03 41 6e 6e 1f"));          // after, whole: note NULL, age 31
        BinlogEvent.Rows rows = decode(type(e), lean, people, RowsKind.UPDATE);
        assertThat(rows.rows().get(0)).containsExactly(1L, null, null, null);
        assertThat(rows.rows().get(1)[2]).isEqualTo(31L);
    }

    @Test
    void aKeyOfSeveralColumnsKeepsTheirNullBitsInOrder() {
        // (id, name) as the key: row 1's name is NULL, row 2's is 'Zoë'
        byte[] e = event("mariadb_delete_rows_v1_nulls");
        TableMap people = map("mariadb_table_map_people");

        byte[] lean = keyOnly(type(e), body(e), people, bits(0, 1));

        assertThat(lean).containsExactly(hex(
            "78 00 00 00 00 00  01 00  04  03"
            + " 02 07 00 00 00"                // row 1: NULL bitmap 00000010 over (id, name): name; id 7
            + " 00 08 00 00 00 03 5a 6f eb")); // row 2: id 8, name 'Zoë'
        List<Object[]> rows = decode(type(e), lean, people, RowsKind.DELETE).rows();
        assertThat(rows.get(0)).containsExactly(7L, null, null, null);
        assertThat(rows.get(1)[0]).isEqualTo(8L);
        assertThat((byte[]) rows.get(1)[1]).containsExactly(hex("5a 6f eb"));
    }

    @Test
    void aKeyColumnTheBeforeImagesLackLeavesTheEventAsItIs() {
        // MINIMAL images: the before image holds id only, so (id, age) cannot be kept
        byte[] e = event("mysql80_update_rows_minimal");
        byte[] body = body(e);

        assertThat(keyOnly(type(e), body, map("mysql80_table_map_people"), bits(0, 2))).isSameAs(body);
    }

    @Test
    void beforeImagesThatAreTheKeyAlreadyAreLeftAsTheyAre() {
        byte[] e = event("mysql80_update_rows_minimal");
        byte[] body = body(e);

        assertThat(keyOnly(type(e), body, map("mysql80_table_map_people"), bits(0))).isSameAs(body);
    }

    @Test
    void insertsHaveNoBeforeImages() {
        byte[] e = event("mariadb_write_rows_v1_reals");
        byte[] body = body(e);

        assertThat(keyOnly(type(e), body, map("mariadb_table_map_reals"), bits(0))).isSameAs(body);
    }

    @Test
    void aKeyBeyondTheRowsColumnsLeavesTheEventAsItIs() {
        byte[] e = event("mariadb_delete_rows_v1_nulls");
        byte[] body = body(e);

        assertThat(keyOnly(type(e), body, map("mariadb_table_map_people"), bits(0, 4))).isSameAs(body);
        assertThat(keyOnly(type(e), body, map("mariadb_table_map_people"), new BitSet())).isSameAs(body);
    }

    @Test
    void updateAfterImagesKeepOnlyTheColumnsThatChangedInSomeRow() {
        // row 1 changes note, row 2 age: the after images keep (age, note); name and id never changed
        byte[] e = event("mariadb_update_rows_v1_people_full");
        TableMap people = map("mariadb_table_map_people");

        LeanRowImages.Result lean = LeanRowImages.trim(type(e), body(e), people, bits(0), new BitSet());

        assertThat(lean.body()).containsExactly(hex(
            "78 00 00 00 00 00  01 00  04  01  0c" // before images: id; after images: age, note
            + " 00 07 00 00 00"                     // before 1: id 7
            + " 01 02 00 68 69"                     // after 1: NULL bitmap over (age, note): age; note 'hi'
            + " 00 08 00 00 00"                     // before 2: id 8
            + " 00 1e 00 00"));                     // after 2: age 30, note ''
        assertThat(lean.beforeBytesDropped()).isEqualTo(5 + 7);  // 'bye' with its length and a NULL byte; 'Zoë', 255, ''
        assertThat(lean.afterBytesDropped()).isEqualTo(4 + 8);   // id 7; id 8 and 'Zoë'
        BinlogEvent.Rows rows = decode(type(e), lean.body(), people, RowsKind.UPDATE);
        assertThat(rows.afterColumns()).isEqualTo(bits(2, 3));
        assertThat(rows.rows()).hasSize(4);
        assertThat((byte[]) rows.rows().get(1)[3]).containsExactly(hex("68 69"));
        assertThat(rows.rows().get(1)[2]).isNull();
        assertThat(rows.rows().get(3)[2]).isEqualTo(30L);
        assertThat((byte[]) rows.rows().get(3)[3]).isEmpty();
    }

    @Test
    void afterImagesAloneCanBeLeanAndKeepTheColumnsTheCallerNames() {
        byte[] e = event("mariadb_update_rows_v1_people_full");
        TableMap people = map("mariadb_table_map_people");

        LeanRowImages.Result lean = LeanRowImages.trim(type(e), body(e), people, null, bits(0));

        assertThat(lean.body()).containsExactly(hex(
            "78 00 00 00 00 00  01 00  04  0f  0d"       // before images whole; after images: id, age, note
            + " 06 07 00 00 00 03 00 62 79 65"            // before 1 as the source wrote it
            + " 02 07 00 00 00 02 00 68 69"               // after 1: NULL bitmap over (id, age, note): age
            + " 00 08 00 00 00 03 5a 6f eb ff 00 00"      // before 2 as the source wrote it
            + " 00 08 00 00 00 1e 00 00"));               // after 2: id 8, age 30, note ''
        assertThat(lean.beforeBytesDropped()).isZero();
        assertThat(lean.afterBytesDropped()).isEqualTo(4); // 'Zoë' with its length
    }

    @Test
    void aVersion2EventsAfterImageKeepsTheChangedColumn() {
        byte[] e = event("mysql80_update_rows_full");
        TableMap people = map("mysql80_table_map_people");

        byte[] lean = LeanRowImages.trim(type(e), body(e), people, bits(0), new BitSet()).body();

        assertThat(lean).containsExactly(hex(
            "73 00 00 00 00 00  01 00  07 00 01 02 00 01 00  04  01  04"
            + " 00 01 00 00 00"   // before: id 1
            + " 00 1f"));         // after: age 31
    }

    @Test
    void anUpdateThatChangesNothingTheImagesShowKeepsTheFirstColumnOfItsAfterImages() {
        byte[] e = event("mysql80_update_rows_full");
        byte[] body = body(e);
        body[body.length - 1] = 0x1e; // the after image's age as the before image's: 30
        TableMap people = map("mysql80_table_map_people");

        byte[] lean = LeanRowImages.trim(type(e), body, people, bits(0), new BitSet()).body();

        assertThat(lean).containsExactly(hex(
            "73 00 00 00 00 00  01 00  07 00 01 02 00 01 00  04  01  01"
            + " 00 01 00 00 00"           // before: id 1
            + " 00 01 00 00 00"));        // after: id 1
    }

    @Test
    void everyColumnChangedOrKeptLeavesTheAfterImagesWhole() {
        byte[] e = event("mariadb_update_rows_v1_people_full");
        byte[] body = body(e);
        TableMap people = map("mariadb_table_map_people");

        // id and name kept by the caller, age and note changed: nothing to drop
        LeanRowImages.Result lean = LeanRowImages.trim(type(e), body, people, null, bits(0, 1));

        assertThat(lean.body()).isSameAs(body);
        assertThat(lean.afterBytesDropped()).isZero();
    }

    @Test
    void afterImageColumnsTheBeforeImagesLackAreKept() {
        // MINIMAL images: the before image holds id only, so whether age or note changed is not known
        byte[] e = event("mysql80_update_rows_minimal");
        byte[] body = body(e);

        assertThat(LeanRowImages.trim(type(e), body, map("mysql80_table_map_people"), bits(0), new BitSet()).body())
            .isSameAs(body);
    }

    @Test
    void deletesHaveNoAfterImages() {
        byte[] e = event("mariadb_delete_rows_v1_nulls");
        byte[] body = body(e);

        assertThat(LeanRowImages.trim(type(e), body, map("mariadb_table_map_people"), null, new BitSet()).body())
            .isSameAs(body);
    }
}
