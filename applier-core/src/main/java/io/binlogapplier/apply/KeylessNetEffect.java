package io.binlogapplier.apply;

import io.binlogapplier.binlog.RowsKind;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The net effect of one keyless table's row changes: a table without a primary or NOT NULL unique
 * key, whose rows are told apart only by their values. Pure; one table; not thread-safe.
 *
 * <p>Rows with equal values cannot be told apart, by the source or by anyone, so such a table is a
 * multiset of row values, and a unit's changes to it are, per distinct value, a number of copies
 * removed and a number added. A removal first takes back a copy the unit itself added earlier (the
 * source removed one of several equal rows; which one does not matter); only the removals left over
 * must find rows that existed before the unit. Applied as "delete that many existing copies of each
 * value, then insert every added copy", the table ends as the changes applied one by one would leave
 * it, and every removal the source made finds its row exactly when the one-by-one order would have.
 * For example, with a row {@code (1, 'a')} on the target:
 * <ul>
 *   <li>UPDATE (1,'a') to (1,'b'), then to (1,'c'): delete one (1,'a'), insert (1,'c');</li>
 *   <li>INSERT (2,'x') twice, DELETE (2,'x') once: insert one (2,'x');</li>
 *   <li>DELETE (1,'a'), INSERT (1,'a'): delete one (1,'a'), insert one (1,'a') (the delete
 *       still proves the row was there).</li>
 * </ul>
 * Values are compared as the binlog carries them (text as bytes), as the one-by-one statements
 * compare them ({@link RowSql}: {@code <=>}, text as binary).
 */
final class KeylessNetEffect {
    private final int[] columns;
    private final Map<RowValues, Count> counts = new LinkedHashMap<>();
    private long changes;

    /** @param columns the source column positions that identify a row (every stored column) */
    KeylessNetEffect(int[] columns) {
        this.columns = columns.clone();
    }

    /** How many copies of one row value to delete from the target and to insert into it. */
    record Copies(Object[] image, BitSet columns, int delete, int insert) {
    }

    private static final class Count {
        Object[] image;
        BitSet columns;
        /** Copies that must exist before the unit: removals no earlier addition covered. */
        int delete;
        /** Copies added and not taken back. */
        int insert;
    }

    /**
     * Adds one row change.
     *
     * @param before the before image (DELETE, UPDATE), else null
     * @param after the after image (INSERT, UPDATE), else null
     * @param afterColumns the columns the after image holds
     */
    void add(RowsKind kind, Object[] before, Object[] after, BitSet afterColumns) {
        if (kind != RowsKind.INSERT) {
            Count c = count(before);
            if (c.insert > 0) {
                c.insert--;
            } else {
                c.delete++;
            }
        }
        if (kind != RowsKind.DELETE) {
            Count c = count(after);
            c.insert++;
            c.image = after;
            c.columns = afterColumns;
        }
        changes++;
    }

    private Count count(Object[] image) {
        Count c = counts.computeIfAbsent(value(image), v -> new Count());
        if (c.image == null) {
            c.image = image;
        }
        return c;
    }

    /** Row changes added so far. */
    long changes() {
        return changes;
    }

    /** Per distinct row value, in the order values were first named, the copies to delete and insert. */
    List<Copies> copies() {
        List<Copies> out = new ArrayList<>();
        for (Count c : counts.values()) {
            if (c.delete > 0 || c.insert > 0) {
                out.add(new Copies(c.image, c.columns, c.delete, c.insert));
            }
        }
        return out;
    }

    private RowValues value(Object[] image) {
        return RowValues.of(image, columns);
    }
}
