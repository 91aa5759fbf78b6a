package io.binlogapplier.apply;

import io.binlogapplier.binlog.RowsKind;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LinkedChangesTest {
    private static final BitSet ALL = all();

    private static BitSet all() {
        BitSet b = new BitSet();
        b.set(0, 2);
        return b;
    }

    private static LinkedChanges.Row<String> insert(String table, long id) {
        return new LinkedChanges.Row<>(table, RowsKind.INSERT, null, ALL, null, new Object[] {id, "x"});
    }

    private static LinkedChanges.Row<String> delete(String table, long id) {
        return new LinkedChanges.Row<>(table, RowsKind.DELETE, ALL, null, new Object[] {id, "x"}, null);
    }

    private static LinkedChanges.Row<String> update(String table, long id) {
        return new LinkedChanges.Row<>(table, RowsKind.UPDATE, ALL, ALL, new Object[] {id, "x"}, new Object[] {id, "y"});
    }

    /** Adds a change that writes the key values {@code writes} and reads {@code reads}. */
    private static void add(LinkedChanges<String> c, LinkedChanges.Row<String> row, long[] writes, long... reads) {
        long[] keys = java.util.Arrays.copyOf(writes, writes.length + reads.length);
        System.arraycopy(reads, 0, keys, writes.length, reads.length);
        c.add(row, keys, writes.length, reads.length);
    }

    private static long[] w(long... keys) {
        return keys;
    }

    /** Each group as "table kind ids". */
    private static List<String> groups(LinkedChanges<String> c) {
        return c.groups().stream().map(g -> g.table() + " " + g.kind() + " " + g.rows().stream()
            .map(r -> String.valueOf((r.beforeImage() != null ? r.beforeImage() : r.afterImage())[0])).toList()).toList();
    }

    @Test
    void changesThatShareNoKeyGoTogetherByTableAndKind() {
        LinkedChanges<String> c = new LinkedChanges<>();
        add(c, insert("parent", 1), w(101));
        add(c, insert("child", 10), w(210), 101);      // child 10 of parent 1: after it
        add(c, insert("parent", 2), w(102));
        add(c, delete("child", 11), w(211), 103);      // a child of parent 3
        add(c, insert("child", 12), w(212), 102);      // child of parent 2: after it
        add(c, delete("child", 13), w(213), 104);

        assertThat(c.layers()).isEqualTo(2);
        assertThat(groups(c)).containsExactly(
            "parent INSERT [1, 2]",
            "child DELETE [11, 13]",
            "child INSERT [10, 12]");
        assertThat(c.rows()).isEqualTo(6);
    }

    @Test
    void aChangeGoesOnePastTheLastLayerOfAnyKeyItShares() {
        LinkedChanges<String> c = new LinkedChanges<>();
        add(c, delete("parent", 1), w(101));           // layer 0
        add(c, insert("parent", 1), w(101));           // the same key: layer 1
        add(c, insert("child", 5), w(205), 101);       // after the insert of its parent: layer 2
        add(c, insert("parent", 7), w(107));           // no shared key: layer 0
        add(c, update("child", 5), w(205), 101);       // after the child's insert: layer 3
        add(c, delete("parent", 9), w(109));           // layer 0, with the first delete

        assertThat(c.layers()).isEqualTo(4);
        assertThat(groups(c)).containsExactly(
            "parent DELETE [1, 9]",
            "parent INSERT [7]",
            "parent INSERT [1]",
            "child INSERT [5]",
            "child UPDATE [5]");
    }

    @Test
    void aChangeNamingTwoKeysWaitsForTheLaterOfTheirLayers() {
        LinkedChanges<String> c = new LinkedChanges<>();
        add(c, insert("a", 1), w(1));
        add(c, insert("a", 2), w(2));
        add(c, update("a", 2), w(2));                  // layer 1
        add(c, update("a", 3), w(3, 2));               // after the update of 2: layer 2
        add(c, update("a", 4), w(4, 1));               // after the insert of 1 only: layer 1

        assertThat(groups(c)).containsExactly("a INSERT [1, 2]", "a UPDATE [2, 4]", "a UPDATE [3]");
    }

    @Test
    void changesThatReadOneKeyValueShareALayerAndAChangeThatWritesItWaitsForThem() {
        LinkedChanges<String> c = new LinkedChanges<>();
        add(c, insert("child", 1), w(201), 100);    // two children of parent 100: layer 0
        add(c, insert("child", 2), w(202), 100);
        add(c, delete("parent", 100), w(100));      // after both: layer 1
        add(c, insert("child", 3), w(203), 100);    // after the parent's delete: layer 2
        add(c, update("child", 2), w(202), 100);    // after its insert and the delete: layer 2

        assertThat(groups(c)).containsExactly("child INSERT [1, 2]", "parent DELETE [100]", "child INSERT [3]",
            "child UPDATE [2]");
    }

    @Test
    void inSourceOrderWhenEveryChangeSharesAKey() {
        LinkedChanges<String> c = new LinkedChanges<>();
        for (int i = 0; i < 5; i++) {
            add(c, i % 2 == 0 ? insert("t", i) : delete("t", i), w(42));
        }
        assertThat(c.layers()).isEqualTo(5);
        assertThat(groups(c)).containsExactly("t INSERT [0]", "t DELETE [1]", "t INSERT [2]", "t DELETE [3]",
            "t INSERT [4]");
    }

    @Test
    void groupsSplitByTheColumnsTheImagesHold() {
        BitSet one = new BitSet();
        one.set(0);
        LinkedChanges<String> c = new LinkedChanges<>();
        add(c, insert("t", 1), w(1));
        add(c, new LinkedChanges.Row<>("t", RowsKind.INSERT, null, one, null, new Object[] {2L}), w(2));
        add(c, insert("t", 3), w(3));
        assertThat(groups(c)).containsExactly("t INSERT [1, 3]", "t INSERT [2]");
    }

    @Test
    void clearForgetsChangesAndKeys() {
        LinkedChanges<String> c = new LinkedChanges<>();
        add(c, insert("t", 1), w(1));
        add(c, delete("t", 1), w(1));
        c.clear();
        assertThat(c.isEmpty()).isTrue();
        add(c, insert("t", 1), w(1));
        assertThat(c.layers()).isEqualTo(1);
        assertThat(groups(c)).containsExactly("t INSERT [1]");
    }
}
