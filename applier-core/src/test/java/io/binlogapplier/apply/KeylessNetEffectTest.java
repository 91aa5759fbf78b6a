package io.binlogapplier.apply;

import io.binlogapplier.binlog.RowsKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The net effect of a keyless table's changes, checked against applying them one by one to a
 * multiset of rows {k, v}: same final table, and a removal that would find no row one by one makes
 * the net effect delete more copies than exist (so the applier redoes the unit in order and names it).
 */
class KeylessNetEffectTest {
    private static final BitSet ALL = BitSet.valueOf(new long[] {0b11});

    @Test
    void updatesOfOneRowCollapseToOneDeleteAndOneInsert() {
        KeylessNetEffect n = new KeylessNetEffect(new int[] {0, 1});
        n.add(RowsKind.UPDATE, row(1, 0), row(1, 1), ALL);
        n.add(RowsKind.UPDATE, row(1, 1), row(1, 2), ALL);
        assertThat(n.copies()).extracting(c -> c.image()[1] + ":" + c.delete() + "/" + c.insert())
            .containsExactly("0:1/0", "2:0/1");
        assertThat(n.changes()).isEqualTo(2);
    }

    @Test
    void equalRowsAreCountedNotMerged() {
        KeylessNetEffect n = new KeylessNetEffect(new int[] {0, 1});
        n.add(RowsKind.INSERT, null, row(2, 0), ALL);
        n.add(RowsKind.INSERT, null, row(2, 0), ALL);
        n.add(RowsKind.INSERT, null, row(2, 0), ALL);
        n.add(RowsKind.DELETE, row(2, 0), null, null);
        assertThat(n.copies()).extracting(c -> c.delete() + "/" + c.insert()).containsExactly("0/2");
    }

    @Test
    void aRemovalBeforeAnAdditionOfTheSameValueStillProvesTheRowExisted() {
        KeylessNetEffect n = new KeylessNetEffect(new int[] {0, 1});
        n.add(RowsKind.DELETE, row(3, 0), null, null);
        n.add(RowsKind.INSERT, null, row(3, 0), ALL);
        assertThat(n.copies()).extracting(c -> c.delete() + "/" + c.insert()).containsExactly("1/1");
    }

    @Test
    void onlyTheIdentifyingColumnsNameARow() {
        KeylessNetEffect n = new KeylessNetEffect(new int[] {0});
        n.add(RowsKind.INSERT, null, row(4, 0), ALL);
        n.add(RowsKind.DELETE, row(4, 9), null, null);
        assertThat(n.copies()).isEmpty();
    }

    @Test
    void textComparesByBytes() {
        KeylessNetEffect n = new KeylessNetEffect(new int[] {0});
        n.add(RowsKind.INSERT, null, new Object[] {"a".getBytes()}, ALL);
        n.add(RowsKind.DELETE, new Object[] {"a".getBytes()}, null, null);
        n.add(RowsKind.DELETE, new Object[] {"A".getBytes()}, null, null);
        assertThat(n.copies()).extracting(c -> new String((byte[]) c.image()[0]) + c.delete() + "/" + c.insert())
            .containsExactly("A1/0");
    }

    @Test
    void randomUnitsEndAsTheChangesOneByOneWould() {
        Random random = new Random(11);
        int conflicts = 0;
        for (int round = 0; round < 3000; round++) {
            Map<List<Long>, Integer> table = new HashMap<>();
            for (int i = random.nextInt(6); i > 0; i--) {
                table.merge(key(random.nextInt(3), random.nextInt(3)), 1, Integer::sum);
            }
            Map<List<Long>, Integer> before = new HashMap<>(table);
            KeylessNetEffect n = new KeylessNetEffect(new int[] {0, 1});
            boolean oneByOneFits = true;
            List<String> ops = new ArrayList<>();
            for (int i = 1 + random.nextInt(8); i > 0; i--) {
                Object[] a = row(random.nextInt(3), random.nextInt(3));
                Object[] b = row(random.nextInt(3), random.nextInt(3));
                RowsKind kind = RowsKind.values()[random.nextInt(3)];
                ops.add(kind + " " + key(a) + (kind == RowsKind.UPDATE ? " -> " + key(b) : ""));
                switch (kind) {
                    case INSERT -> {
                        n.add(kind, null, a, ALL);
                        table.merge(key(a), 1, Integer::sum);
                    }
                    case DELETE -> {
                        n.add(kind, a, null, null);
                        oneByOneFits &= remove(table, key(a));
                    }
                    case UPDATE -> {
                        n.add(kind, a, b, ALL);
                        oneByOneFits &= remove(table, key(a));
                        table.merge(key(b), 1, Integer::sum);
                    }
                }
            }
            Map<List<Long>, Integer> net = new HashMap<>(before);
            boolean netFits = true;
            for (KeylessNetEffect.Copies c : n.copies()) {
                List<Long> k = key(c.image());
                int have = net.getOrDefault(k, 0);
                netFits &= have >= c.delete();
                net.put(k, Math.max(0, have - c.delete()) + c.insert());
            }
            net.values().removeIf(v -> v == 0);
            assertThat(netFits).as("%s on %s", ops, before).isEqualTo(oneByOneFits);
            if (oneByOneFits) {
                assertThat(net).as("%s on %s", ops, before).isEqualTo(table);
            } else {
                conflicts++;
            }
        }
        assertThat(conflicts).as("the random units include some that do not fit").isGreaterThan(100);
    }

    /** Removes one copy of the row; false when there is none (the one-by-one DELETE finds no row). */
    private static boolean remove(Map<List<Long>, Integer> table, List<Long> k) {
        Integer have = table.get(k);
        if (have == null) {
            return false;
        }
        if (have == 1) {
            table.remove(k);
        } else {
            table.put(k, have - 1);
        }
        return true;
    }

    private static Object[] row(long k, long v) {
        return new Object[] {k, v};
    }

    private static List<Long> key(Object[] image) {
        return List.of((Long) image[0], (Long) image[1]);
    }

    private static List<Long> key(long k, long v) {
        return List.of(k, v);
    }
}
