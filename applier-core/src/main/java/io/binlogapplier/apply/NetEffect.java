package io.binlogapplier.apply;

import io.binlogapplier.binlog.RowsKind;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The net effect of one table's row changes, per lookup-key value: whether a row with that key
 * existed before the first change, and the row it holds after the last (none when deleted). Pure;
 * one table; not thread-safe.
 *
 * <p>Every change is a removal of the row its before image names and/or an addition of the row its
 * after image holds: an INSERT adds, a DELETE removes, an UPDATE removes then adds (so an UPDATE
 * that changes the key moves the row). Applied as "delete every row that existed, then insert every
 * final row", the result equals applying the changes one by one, whatever the other unique keys
 * do: the rows left untouched are those the changes never named, and on the source they coexist
 * with the final rows, so no insert can collide with them. For example:
 * <ul>
 *   <li>insert then update: nothing existed, the updated row is inserted;</li>
 *   <li>update then delete: the row existed and is deleted;</li>
 *   <li>delete then insert: the row existed, it is deleted and the new row inserted;</li>
 *   <li>insert then delete: nothing to do (but see {@link #transients}).</li>
 * </ul>
 * Keys are compared by their values as the binlog carries them: a row image holds the stored value,
 * so every change to one row names it alike, and two rows never share a key.
 */
final class NetEffect {
    private final int[] keyColumns;
    private final Map<RowValues, State> states = new LinkedHashMap<>();
    private long changes;

    /** @param keyColumns the source column positions of the target's lookup key, in key order */
    NetEffect(int[] keyColumns) {
        this.keyColumns = keyColumns.clone();
    }

    /** A change contradicts the changes before it (a row added twice, or removed twice). */
    static final class Contradiction extends Exception {
        Contradiction(String message) {
            super(message, null, false, false);
        }
    }

    /** A final row and the columns its image holds. */
    record Row(Object[] image, BitSet columns) {
    }

    private static final class State {
        /** The before image of the first change, when that change found a row (it existed); else null. */
        Object[] existed;
        /** The row after the last change; null when there is none. */
        Object[] row;
        BitSet columns;
        /** The last row this unit added with the key and removed again (none before, none after). */
        Object[] transientRow;
        BitSet transientColumns;
    }

    /**
     * Adds one row change.
     *
     * @param before the before image (DELETE, UPDATE), else null
     * @param after the after image (INSERT, UPDATE), else null
     * @param afterColumns the columns the after image holds
     * @throws Contradiction when the change cannot follow the earlier ones (the target's key is not
     *     a key of the source's rows): apply the changes one by one instead, which names the row
     */
    void add(RowsKind kind, Object[] before, Object[] after, BitSet afterColumns) throws Contradiction {
        if (kind != RowsKind.INSERT) {
            remove(before);
        }
        if (kind != RowsKind.DELETE) {
            put(after, afterColumns);
        }
        changes++;
    }

    private void remove(Object[] before) throws Contradiction {
        RowValues k = key(before);
        State s = states.get(k);
        if (s == null) {
            s = new State();
            s.existed = before;
            states.put(k, s);
        } else if (s.row != null) {
            s.transientRow = s.row;
            s.transientColumns = s.columns;
            s.row = null;
            s.columns = null;
        } else {
            throw new Contradiction("a row with key " + k + " was changed or deleted after it had been deleted");
        }
    }

    private void put(Object[] after, BitSet columns) throws Contradiction {
        RowValues k = key(after);
        State s = states.get(k);
        if (s == null) {
            s = new State();
            states.put(k, s);
        } else if (s.row != null) {
            throw new Contradiction("a row with key " + k + " was inserted twice");
        }
        s.row = after;
        s.columns = columns;
    }

    /** Row changes added so far. */
    long changes() {
        return changes;
    }

    boolean isEmpty() {
        return states.isEmpty();
    }

    /** Before images (only their key columns matter) of the rows that existed: delete these first. */
    List<Object[]> deletes() {
        List<Object[]> out = new ArrayList<>();
        for (State s : states.values()) {
            if (s.existed != null) {
                out.add(s.existed);
            }
        }
        return out;
    }

    /** The final rows, in the order their keys were first named: insert these after the deletes. */
    List<Row> inserts() {
        List<Row> out = new ArrayList<>();
        for (State s : states.values()) {
            if (s.row != null) {
                out.add(new Row(s.row, s.columns));
            }
        }
        return out;
    }

    /**
     * Rows the unit inserted and deleted again (no row with the key before it, none after): the net
     * effect leaves them out, but on the source their inserts moved the table's AUTO_INCREMENT counter.
     */
    List<Row> transients() {
        List<Row> out = new ArrayList<>();
        for (State s : states.values()) {
            if (s.existed == null && s.row == null && s.transientRow != null) {
                out.add(new Row(s.transientRow, s.transientColumns));
            }
        }
        return out;
    }

    /**
     * The net effect as three disjoint sets of keys, for a table whose lookup key is its only unique
     * key: rows that existed and are gone ({@code removed}: delete by key), rows that existed and
     * hold another final row ({@code replaced}: update in place, {@code INSERT … ON DUPLICATE KEY
     * UPDATE}), rows that did not exist ({@code added}: insert). A row whose final image is, cell for
     * cell, its whole before image counts as removed and added: an update in place would change
     * nothing, and the target could not say whether it found the row.
     */
    Split split() {
        List<Object[]> removed = new ArrayList<>();
        List<Row> replaced = new ArrayList<>();
        List<Row> added = new ArrayList<>();
        for (State s : states.values()) {
            if (s.existed != null && s.row == null) {
                removed.add(s.existed);
            } else if (s.existed != null) {
                if (java.util.Arrays.deepEquals(s.existed, s.row)) {
                    removed.add(s.existed);
                    added.add(new Row(s.row, s.columns));
                } else {
                    replaced.add(new Row(s.row, s.columns));
                }
            } else if (s.row != null) {
                added.add(new Row(s.row, s.columns));
            }
        }
        return new Split(removed, replaced, added);
    }

    /** See {@link #split}. */
    record Split(List<Object[]> removed, List<Row> replaced, List<Row> added) {
    }

    private RowValues key(Object[] image) {
        return RowValues.of(image, keyColumns);
    }
}
