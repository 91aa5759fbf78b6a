package io.binlogapplier.apply;

import io.binlogapplier.binlog.RowsKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The net effect, checked against applying the same changes one by one: rows are {key, value}
 * with the key in column 0 and a second UNIQUE key in column 1.
 */
class NetEffectTest {
    private static final BitSet ALL = BitSet.valueOf(new long[] {0b11});

    /** One row change: kind, before and after row (either may be null). */
    private record Op(RowsKind kind, Object[] before, Object[] after) {
        @Override
        public String toString() {
            return kind + (before == null ? "" : " " + before[0] + "/" + before[1])
                + (after == null ? "" : " -> " + after[0] + "/" + after[1]);
        }
    }

    @Test
    void insertThenUpdateIsOneInsert() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.INSERT, null, row(1, 10), ALL);
        n.add(RowsKind.UPDATE, row(1, 10), row(1, 11), ALL);
        assertThat(n.deletes()).isEmpty();
        assertThat(n.inserts()).extracting(r -> r.image()[1]).containsExactly(11L);
        assertThat(n.changes()).isEqualTo(2);
    }

    @Test
    void updateThenDeleteIsOneDelete() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.UPDATE, row(1, 10), row(1, 11), ALL);
        n.add(RowsKind.DELETE, row(1, 11), null, null);
        assertThat(n.deletes()).extracting(r -> r[0]).containsExactly(1L);
        assertThat(n.inserts()).isEmpty();
    }

    @Test
    void deleteThenInsertWritesTheFinalRow() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.DELETE, row(1, 10), null, null);
        n.add(RowsKind.INSERT, null, row(1, 12), ALL);
        assertThat(n.deletes()).extracting(r -> r[0]).containsExactly(1L);
        assertThat(n.inserts()).extracting(r -> r.image()[1]).containsExactly(12L);
    }

    @Test
    void insertThenDeleteLeavesNothingToDo() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.INSERT, null, row(1, 10), ALL);
        n.add(RowsKind.DELETE, row(1, 10), null, null);
        assertThat(n.deletes()).isEmpty();
        assertThat(n.inserts()).isEmpty();
        assertThat(n.changes()).isEqualTo(2);
    }

    @Test
    void anUpdateThatChangesTheKeyMovesTheRow() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.UPDATE, row(1, 10), row(2, 10), ALL);
        assertThat(n.deletes()).extracting(r -> r[0]).containsExactly(1L);
        assertThat(n.inserts()).extracting(r -> r.image()[0]).containsExactly(2L);
    }

    @Test
    void byteArrayKeysCompareByContent() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.INSERT, null, new Object[] {"k".getBytes(), 1L}, ALL);
        n.add(RowsKind.DELETE, new Object[] {"k".getBytes(), 1L}, null, null);
        assertThat(n.inserts()).isEmpty();
        assertThat(n.deletes()).isEmpty();
    }

    @Test
    void aRowInsertedTwiceIsAContradiction() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.INSERT, null, row(1, 10), ALL);
        assertThatThrownBy(() -> n.add(RowsKind.INSERT, null, row(1, 11), ALL))
            .isInstanceOf(NetEffect.Contradiction.class).hasMessageContaining("inserted twice");
    }

    @Test
    void aRowChangedAfterItWasDeletedIsAContradiction() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.DELETE, row(1, 10), null, null);
        assertThatThrownBy(() -> n.add(RowsKind.UPDATE, row(1, 10), row(1, 11), ALL))
            .isInstanceOf(NetEffect.Contradiction.class);
        NetEffect m = new NetEffect(new int[] {0});
        m.add(RowsKind.DELETE, row(1, 10), null, null);
        assertThatThrownBy(() -> m.add(RowsKind.DELETE, row(1, 10), null, null))
            .isInstanceOf(NetEffect.Contradiction.class);
    }

    @Test
    void compositeKeysNeedEveryColumnToMatch() throws Exception {
        NetEffect n = new NetEffect(new int[] {0, 1});
        n.add(RowsKind.INSERT, null, row(1, 10), ALL);
        n.add(RowsKind.INSERT, null, row(1, 11), ALL);
        n.add(RowsKind.DELETE, row(1, 10), null, null);
        assertThat(n.inserts()).extracting(r -> r.image()[1]).containsExactly(11L);
        assertThat(n.deletes()).isEmpty();
    }

    @Test
    void secondaryUniqueValuesSwappedBetweenRowsStillApply() throws Exception {
        // a=1/10, b=2/20; swap the unique values through a third: 1→30, 2→10, 1→20
        Map<Long, Long> table = new TreeMap<>(Map.of(1L, 10L, 2L, 20L));
        List<Op> ops = List.of(
            new Op(RowsKind.UPDATE, row(1, 10), row(1, 30)),
            new Op(RowsKind.UPDATE, row(2, 20), row(2, 10)),
            new Op(RowsKind.UPDATE, row(1, 30), row(1, 20)));
        assertThat(viaNetEffect(table, ops)).isEqualTo(inOrder(table, ops)).isEqualTo(Map.of(1L, 20L, 2L, 10L));
    }

    /**
     * Every sequence of one, two and three changes on keys 1 and 2 (inserts, deletes, updates that
     * keep or change the key, unique values 10/11/12), from every starting table: the net effect
     * leaves the same table as the changes applied one by one, its deletes find exactly the rows
     * that existed, and its inserts never collide with a row left in place.
     */
    @Test
    void everySequenceOfUpToThreeChangesEndsAsInOrder() throws Exception {
        List<Map<Long, Long>> starts = List.of(Map.of(), Map.of(1L, 10L), Map.of(2L, 11L), Map.of(1L, 10L, 2L, 11L),
            Map.of(1L, 11L, 2L, 10L));
        int checked = 0;
        for (Map<Long, Long> start : starts) {
            List<List<Op>> sequences = new ArrayList<>();
            extend(new TreeMap<>(start), new ArrayList<>(), 3, sequences);
            for (List<Op> ops : sequences) {
                assertThat(viaNetEffect(start, ops)).as("%s from %s", ops, start).isEqualTo(inOrder(start, ops));
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(1000);
    }

    /**
     * The split for a table whose key is its only unique key: every sequence of one to three changes
     * (values may repeat), from every starting table, applied as "delete the removed, update in place
     * the replaced, insert the added" gives the table the changes give one by one; each delete and
     * each update in place finds its row, each update in place changes it (so the target reports 2
     * affected rows for it), and each insert finds its key free.
     */
    @Test
    void theSplitForATableWithOneUniqueKeyEndsAsInOrderAndEveryUpdateInPlaceChangesItsRow() throws Exception {
        List<Map<Long, Long>> starts = List.of(Map.of(), Map.of(1L, 10L), Map.of(2L, 10L), Map.of(1L, 10L, 2L, 10L),
            Map.of(1L, 11L, 2L, 10L));
        int checked = 0;
        int replaced = 0;
        for (Map<Long, Long> start : starts) {
            List<List<Op>> sequences = new ArrayList<>();
            extend(new TreeMap<>(start), new ArrayList<>(), 3, sequences, false);
            for (List<Op> ops : sequences) {
                NetEffect n = new NetEffect(new int[] {0});
                for (Op op : ops) {
                    n.add(op.kind(), op.before(), op.after(), op.after() == null ? null : ALL);
                }
                NetEffect.Split split = n.split();
                Map<Long, Long> table = new TreeMap<>(start);
                for (Object[] d : split.removed()) {
                    assertThat(table).as("%s: a removed row existed", ops).containsKey((Long) d[0]);
                    table.remove((Long) d[0]);
                }
                for (NetEffect.Row r : split.replaced()) {
                    long k = (Long) r.image()[0];
                    assertThat(table).as("%s: a replaced row exists", ops).containsKey(k);
                    assertThat(table.get(k)).as("%s: a replaced row changes", ops).isNotEqualTo(r.image()[1]);
                    table.put(k, (Long) r.image()[1]);
                    replaced++;
                }
                for (NetEffect.Row r : split.added()) {
                    assertThat(table).as("%s: an added key is free", ops).doesNotContainKey((Long) r.image()[0]);
                    table.put((Long) r.image()[0], (Long) r.image()[1]);
                }
                assertThat(table).as("%s from %s", ops, start).isEqualTo(inOrder(start, ops));
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(1000);
        assertThat(replaced).isGreaterThan(100);
    }

    @Test
    void aRowUpdatedBackToWhatItWasIsRemovedAndAddedNotUpdatedInPlace() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.UPDATE, row(1, 10), row(1, 11), ALL);
        n.add(RowsKind.UPDATE, row(1, 11), row(1, 10), ALL);
        n.add(RowsKind.UPDATE, row(2, 20), row(2, 21), ALL);
        NetEffect.Split split = n.split();
        assertThat(split.removed()).extracting(r -> r[0]).containsExactly(1L);
        assertThat(split.added()).extracting(r -> r.image()[0]).containsExactly(1L);
        assertThat(split.replaced()).extracting(r -> r.image()[1]).containsExactly(21L);
    }

    /**
     * A row inserted and deleted again is no part of the net effect, but is named as transient (its
     * insert moved an AUTO_INCREMENT counter on the source): its last image; not a row that existed
     * before, nor one inserted, deleted and inserted again.
     */
    @Test
    void aRowInsertedAndDeletedAgainIsTransientWithItsLastImage() throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        n.add(RowsKind.INSERT, null, row(7, 70), ALL);
        n.add(RowsKind.UPDATE, row(7, 70), row(7, 71), ALL);
        n.add(RowsKind.DELETE, row(7, 71), null, null);
        n.add(RowsKind.INSERT, null, row(8, 80), ALL);
        n.add(RowsKind.DELETE, row(8, 80), null, null);
        n.add(RowsKind.INSERT, null, row(8, 81), ALL);
        n.add(RowsKind.DELETE, row(1, 10), null, null);
        n.add(RowsKind.INSERT, null, row(1, 11), ALL);
        n.add(RowsKind.DELETE, row(1, 11), null, null);
        assertThat(n.transients()).extracting(r -> r.image()[1]).containsExactly(71L);
        assertThat(n.inserts()).extracting(r -> r.image()[1]).containsExactly(81L);
        assertThat(n.deletes()).extracting(r -> r[0]).containsExactly(1L);
    }

    /** Collects every valid sequence (each change valid against the table before it) up to {@code depth}. */
    private static void extend(TreeMap<Long, Long> table, List<Op> prefix, int depth, List<List<Op>> out) {
        extend(table, prefix, depth, out, true);
    }

    /** As above; {@code uniqueValues}: column 1 is a second unique key (else values may repeat). */
    private static void extend(TreeMap<Long, Long> table, List<Op> prefix, int depth, List<List<Op>> out,
                               boolean uniqueValues) {
        if (!prefix.isEmpty()) {
            out.add(List.copyOf(prefix));
        }
        if (depth == 0) {
            return;
        }
        for (long k = 1; k <= 2; k++) {
            for (long v = 10; v <= 12; v++) {
                if (!table.containsKey(k) && !(uniqueValues && table.containsValue(v))) {
                    step(table, prefix, depth, out, new Op(RowsKind.INSERT, null, row(k, v)), uniqueValues);
                }
            }
            if (table.containsKey(k)) {
                Object[] before = row(k, table.get(k));
                step(table, prefix, depth, out, new Op(RowsKind.DELETE, before, null), uniqueValues);
                for (long k2 = 1; k2 <= 2; k2++) {
                    for (long v = 10; v <= 12; v++) {
                        boolean keyFree = k2 == k || !table.containsKey(k2);
                        boolean valueFree = !uniqueValues || v == table.get(k) || !table.containsValue(v);
                        if (keyFree && valueFree) {
                            step(table, prefix, depth, out, new Op(RowsKind.UPDATE, before, row(k2, v)), uniqueValues);
                        }
                    }
                }
            }
        }
    }

    private static void step(TreeMap<Long, Long> table, List<Op> prefix, int depth, List<List<Op>> out, Op op,
                             boolean uniqueValues) {
        TreeMap<Long, Long> next = new TreeMap<>(table);
        apply(next, op);
        prefix.add(op);
        extend(next, prefix, depth - 1, out, uniqueValues);
        prefix.remove(prefix.size() - 1);
    }

    private static void apply(Map<Long, Long> table, Op op) {
        if (op.before() != null) {
            table.remove((Long) op.before()[0]);
        }
        if (op.after() != null) {
            table.put((Long) op.after()[0], (Long) op.after()[1]);
        }
    }

    private static Map<Long, Long> inOrder(Map<Long, Long> start, List<Op> ops) {
        Map<Long, Long> table = new TreeMap<>(start);
        for (Op op : ops) {
            apply(table, op);
        }
        return table;
    }

    /** Deletes every row that existed (each must be there), then inserts the final rows (no key may collide). */
    private static Map<Long, Long> viaNetEffect(Map<Long, Long> start, List<Op> ops) throws Exception {
        NetEffect n = new NetEffect(new int[] {0});
        for (Op op : ops) {
            n.add(op.kind(), op.before(), op.after(), op.after() == null ? null : ALL);
        }
        Map<Long, Long> table = new TreeMap<>(start);
        for (Object[] d : n.deletes()) {
            assertThat(table).as("a deleted row existed").containsKey((Long) d[0]);
            table.remove((Long) d[0]);
        }
        Set<Long> values = new HashSet<>(table.values());
        for (NetEffect.Row r : n.inserts()) {
            long k = (Long) r.image()[0];
            long v = (Long) r.image()[1];
            assertThat(table).as("inserted key is free").doesNotContainKey(k);
            assertThat(values.add(v)).as("inserted unique value %s is free", v).isTrue();
            table.put(k, v);
        }
        assertThat(n.changes()).isEqualTo(ops.size());
        return new HashMap<>(table);
    }

    private static Object[] row(long key, long value) {
        return new Object[] {key, value};
    }
}
