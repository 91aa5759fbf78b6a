package io.binlogapplier.apply;

import io.binlogapplier.binlog.RowsKind;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Row changes to tables a foreign key links, held back within a unit so that those of one table and
 * kind can go as one statement (a multi-row INSERT, a DELETE of a list of keys) where the source ran
 * one per row. Pure.
 *
 * <p>Such tables are applied in source order because a change to one may check or cascade to rows
 * of another. What has to stay in order is narrower. A change <em>writes</em> the key values of its
 * row (primary and unique keys, before and after) and <em>reads</em> the parent key values its
 * row's foreign keys reference (see {@link WriteSets.Keys}): a check finds the parent row by that
 * value, and a cascade from a parent reaches exactly the child rows whose foreign key names the
 * value the parent's change writes. So two changes must keep their order when one writes a key value
 * the other reads or writes; two that only read one (two children of one parent) need not. Each
 * change goes into a <em>layer</em>: one past the last layer holding a change it must follow. Layers
 * are applied in order; the changes of one layer need no order among them, so they go grouped by
 * table and kind.
 *
 * @param <T> the table a change belongs to
 */
final class LinkedChanges<T> {
    /** One row change: for INSERT only the after image, for DELETE only the before image. */
    record Row<T>(T table, RowsKind kind, BitSet before, BitSet after, Object[] beforeImage, Object[] afterImage) {
    }

    /** Changes of one layer with one table, kind and image columns, in source order. */
    record Group<T>(T table, RowsKind kind, BitSet before, BitSet after, List<Row<T>> rows) {
    }

    private record GroupKey(int layer, Object table, RowsKind kind, BitSet before, BitSet after) {
    }

    /** The last layer that writes each key value, and the last that reads it. */
    private final Map<Long, Integer> lastWrite = new HashMap<>();
    private final Map<Long, Integer> lastRead = new HashMap<>();
    private final Map<GroupKey, Group<T>> groups = new LinkedHashMap<>();
    private int rows;
    private int layers;

    /**
     * Adds a change that writes the key values {@code keys[0..writes)} and reads
     * {@code keys[writes..writes + reads)}.
     */
    void add(Row<T> row, long[] keys, int writes, int reads) {
        int layer = 0;
        for (int k = 0; k < writes + reads; k++) {
            layer = Math.max(layer, after(lastWrite, keys[k]));
            if (k < writes) {
                layer = Math.max(layer, after(lastRead, keys[k]));
            }
        }
        for (int k = 0; k < writes + reads; k++) {
            Map<Long, Integer> last = k < writes ? lastWrite : lastRead;
            last.merge(keys[k], layer, Math::max);
        }
        layers = Math.max(layers, layer + 1);
        groups.computeIfAbsent(new GroupKey(layer, row.table(), row.kind(), row.before(), row.after()),
            g -> new Group<>(row.table(), row.kind(), row.before(), row.after(), new ArrayList<>())).rows().add(row);
        rows++;
    }

    /** The layer after the last that {@code last} holds for {@code key}; 0 when none. */
    private static int after(Map<Long, Integer> last, long key) {
        Integer l = last.get(key);
        return l == null ? 0 : l + 1;
    }

    boolean isEmpty() {
        return rows == 0;
    }

    /** Row changes held. */
    int rows() {
        return rows;
    }

    /** Layers the changes held take (each a step that must follow the one before). */
    int layers() {
        return layers;
    }

    /** Every group, layer by layer; within a layer, in the order its first change came. */
    List<Group<T>> groups() {
        List<List<Group<T>>> byLayer = new ArrayList<>(layers);
        for (int i = 0; i < layers; i++) {
            byLayer.add(new ArrayList<>());
        }
        for (Map.Entry<GroupKey, Group<T>> e : groups.entrySet()) {
            byLayer.get(e.getKey().layer()).add(e.getValue());
        }
        List<Group<T>> out = new ArrayList<>(groups.size());
        byLayer.forEach(out::addAll);
        return out;
    }

    void clear() {
        lastWrite.clear();
        lastRead.clear();
        groups.clear();
        rows = 0;
        layers = 0;
    }
}
