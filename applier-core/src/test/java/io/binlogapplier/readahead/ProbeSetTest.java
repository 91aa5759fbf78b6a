package io.binlogapplier.readahead;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.apply.ColumnInfo;
import io.binlogapplier.apply.TableSchema;
import io.binlogapplier.binlog.BinlogType;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.transaction.Change;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Which index entries a row change reads and writes, as read-ahead looks them up. A table like
 * sysbench's: {@code id} PRIMARY KEY, {@code k} with KEY k_1 (k), {@code c} in no index.
 */
class ProbeSetTest {
    private static final ColumnInfo ID = new ColumnInfo("id", 0, "int", "int", null, null, false, false);
    private static final ColumnInfo K = new ColumnInfo("k", 1, "int", "int", null, null, true, false);
    private static final ColumnInfo C = new ColumnInfo("c", 2, "int", "int", null, null, true, false);
    private static final TableSchema T = new TableSchema("db", "t", List.of(ID, K, C), List.of(0),
        List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), List.of(0), "InnoDB", true, false, List.of(), false,
        1, List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0)), new TableSchema.KeyInfo("k_1", List.of(1))));
    private static final TableMap MAP = new TableMap(7, "db", "t",
        new int[] {BinlogType.LONG, BinlogType.LONG, BinlogType.LONG}, new int[3], new int[3], new BitSet(), null,
        null, null);
    private static final BitSet ALL = bits(0, 1, 2);

    private static BitSet bits(int... set) {
        BitSet b = new BitSet();
        for (int i : set) {
            b.set(i);
        }
        return b;
    }

    private static Change.Rows rows(RowsKind kind, BitSet before, BitSet after, Object[]... images) {
        return new Change.Rows(MAP, kind, 0, before, after, List.of(images), 10, null, null);
    }

    /** index name → values looked up, each value as a list of its cells. */
    private static Map<String, List<List<Object>>> lookups(ProbeSet set) {
        Map<String, List<List<Object>>> out = new LinkedHashMap<>();
        for (ProbeSet.Probe p : set.probes()) {
            List<List<Object>> values = new ArrayList<>();
            for (ProbeSet.Cell[] v : p.values()) {
                List<Object> cells = new ArrayList<>();
                for (ProbeSet.Cell c : v) {
                    cells.add(c.value());
                }
                values.add(cells);
            }
            out.put(p.index().name(), values);
        }
        return out;
    }

    @Test
    void anInsertOrDeleteReadsItsRowsPrimaryKeyAndEverySecondaryIndexEntry() {
        ProbeSet set = new ProbeSet();
        assertThat(set.add(rows(RowsKind.INSERT, new BitSet(), ALL, new Object[] {1, 10, 100}), T)).isTrue();
        assertThat(set.add(rows(RowsKind.DELETE, ALL, new BitSet(), new Object[] {2, 20, 200}), T)).isTrue();
        // k_1 is not unique: an entry is named by k and the primary key InnoDB keeps in it
        assertThat(lookups(set)).isEqualTo(Map.of("PRIMARY", List.of(List.of(1), List.of(2)),
            "k_1", List.of(List.of(10, 1), List.of(20, 2))));
        assertThat(set.size()).isEqualTo(4);
    }

    @Test
    void anUpdateReadsThePrimaryKeyAndOnlyTheSecondaryIndexesItChangesOldAndNew() {
        ProbeSet set = new ProbeSet();
        // UPDATE t SET c = 101 WHERE id = 1: k_1 untouched
        set.add(rows(RowsKind.UPDATE, ALL, ALL, new Object[] {1, 10, 100}, new Object[] {1, 10, 101}), T);
        assertThat(lookups(set)).isEqualTo(Map.of("PRIMARY", List.of(List.of(1))));
        // UPDATE t SET k = 11 WHERE id = 2: both k_1 entries
        set.add(rows(RowsKind.UPDATE, ALL, ALL, new Object[] {2, 20, 200}, new Object[] {2, 21, 200}), T);
        assertThat(lookups(set)).isEqualTo(Map.of("PRIMARY", List.of(List.of(1), List.of(2)),
            "k_1", List.of(List.of(20, 2), List.of(21, 2))));
    }

    @Test
    void anUpdateThatMovesTheRowReadsBothPrimaryKeys() {
        ProbeSet set = new ProbeSet();
        set.add(rows(RowsKind.UPDATE, ALL, ALL, new Object[] {1, 10, 100}, new Object[] {5, 10, 100}), T);
        // and k_1's entry, which holds the primary key: (10, 1) goes, (10, 5) comes
        assertThat(lookups(set)).isEqualTo(Map.of("PRIMARY", List.of(List.of(1), List.of(5)),
            "k_1", List.of(List.of(10, 1), List.of(10, 5))));
    }

    @Test
    void aMinimalAfterImageChangesOnlyWhatItHoldsAndValuesAreReadOnce() {
        ProbeSet set = new ProbeSet();
        // binlog_row_image=MINIMAL: before image the key only, after image the changed column only
        set.add(rows(RowsKind.UPDATE, bits(0), bits(2), new Object[] {1, null, null}, new Object[] {null, null, 7},
            new Object[] {1, null, null}, new Object[] {null, null, 8}), T);
        assertThat(lookups(set)).isEqualTo(Map.of("PRIMARY", List.of(List.of(1))));
        // an index whose column the image lacks, or whose value is NULL, is not looked up
        set.add(rows(RowsKind.DELETE, bits(0), new BitSet(), new Object[] {3, null, null}), T);
        set.add(rows(RowsKind.INSERT, new BitSet(), ALL, new Object[] {4, null, 1}), T);
        assertThat(lookups(set)).isEqualTo(Map.of("PRIMARY", List.of(List.of(1), List.of(3), List.of(4))));
    }

    @Test
    void aLargeChangeIsReadOnlyUpToTheLimitAndByteValuesCompareByContent() {
        ProbeSet set = new ProbeSet();
        Object[][] images = new Object[10][];
        for (int i = 0; i < images.length; i++) {
            images[i] = new Object[] {i, i, i};
        }
        set.add(rows(RowsKind.INSERT, new BitSet(), ALL, images), T, 4);
        assertThat(set.size()).isEqualTo(4);
        assertThat(lookups(set).get("PRIMARY")).isEqualTo(List.of(List.of(0), List.of(1)));

        ColumnInfo name = new ColumnInfo("name", 0, "varchar", "varchar(9)", "utf8mb4", "utf8mb4_bin", false, false);
        TableSchema byName = new TableSchema("db", "n", List.of(name), List.of(0),
            List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), List.of(0), "InnoDB", true, false, List.of(),
            false);
        TableMap map = new TableMap(8, "db", "n", new int[] {BinlogType.VARCHAR}, new int[] {36}, new int[1],
            new BitSet(), null, null, null);
        ProbeSet names = new ProbeSet();
        names.add(new Change.Rows(map, RowsKind.DELETE, 0, bits(0), new BitSet(),
            List.of(new Object[] {"a".getBytes()}, new Object[] {"a".getBytes()}), 10, null, null), byName);
        assertThat(names.size()).isEqualTo(1);
    }

    @Test
    void aRowThatDoesNotFitTheTargetTableIsLeftToTheWorker() {
        TableMap wider = new TableMap(7, "db", "t", new int[] {BinlogType.LONG, BinlogType.LONG, BinlogType.LONG,
            BinlogType.LONG}, new int[4], new int[4], new BitSet(), null, null, null);
        ProbeSet set = new ProbeSet();
        assertThat(set.add(new Change.Rows(wider, RowsKind.INSERT, 0, new BitSet(), bits(0, 1, 2, 3),
            List.<Object[]>of(new Object[] {1, 2, 3, 4}), 10, null, null), T)).isFalse();
        assertThat(set.size()).isZero();
    }
}
