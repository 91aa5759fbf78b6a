package io.binlogapplier.apply;

import io.binlogapplier.binlog.LeanRowImages;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.transaction.Change;

import java.util.BitSet;

/**
 * Decides, per rows event sent as a BINLOG statement, whether its row images can be made lean
 * ({@link LeanRowImages}: before images cut to the target table's primary key, UPDATE after images
 * to the columns that changed), and makes them so. Only where the target provably finds rows by
 * that key alone, reads nothing else of a before image, and unpacks an after image over the whole
 * row it found: a MariaDB target, an InnoDB table with a PRIMARY KEY of whole, stored (not
 * generated) columns, whose positions are the same columns in the source's rows (a BINLOG statement
 * matches columns by position). After images always keep the target's generated columns and those
 * with an {@code ON UPDATE} default, changed or not. Everything else goes as the source wrote it.
 * Owned by one worker; not thread-safe.
 */
final class LeanImages {
    private final boolean before;
    private final boolean after;
    /** The last table map asked about, and what was decided for it (a large statement repeats it). */
    private TableMap lastMap;
    private TableSchema lastSchema;
    private BitSet lastKeepBefore;
    private BitSet lastKeepAfter;
    /** Bytes of before and of after images left out since the last {@link #takeDropped}. */
    private long beforeDropped;
    private long afterDropped;

    /**
     * @param before cut before images to the key (false for a MySQL target, or as configured)
     * @param after cut UPDATE after images to the columns that changed (likewise)
     */
    LeanImages(boolean before, boolean after) {
        this.before = before;
        this.after = after;
    }

    /** The event with lean images, or {@code r} itself. */
    Change.Rows apply(Change.Rows r, TableSchema table) {
        if (!before && !after || r.body() == null || r.kind() == RowsKind.INSERT) {
            return r;
        }
        if (r.table() != lastMap || table != lastSchema) {
            lastMap = r.table();
            lastSchema = table;
            lastKeepBefore = keepColumns(r.table(), table);
            lastKeepAfter = lastKeepBefore == null ? null : keepInAfterImages(r.table(), table);
        }
        if (lastKeepBefore == null) {
            return r;
        }
        LeanRowImages.Result lean = LeanRowImages.trim(r.header().type(), r.body(), r.table(),
            before ? lastKeepBefore : null, after ? lastKeepAfter : null);
        if (lean.body() == r.body()) {
            return r;
        }
        beforeDropped += lean.beforeBytesDropped();
        afterDropped += lean.afterBytesDropped();
        return new Change.Rows(r.table(), r.kind(), r.flags(), r.beforeColumns(), r.afterColumns(), r.rows(),
            r.sizeBytes(), r.header(), lean.body());
    }

    /** {@code {before-image bytes, after-image bytes}} left out since the last call (or {@link #discard}). */
    long[] takeDropped() {
        long[] d = {beforeDropped, afterDropped};
        beforeDropped = 0;
        afterDropped = 0;
        return d;
    }

    /** The unit is rolled back: what it left out is not counted. */
    void discard() {
        beforeDropped = 0;
        afterDropped = 0;
    }

    /**
     * The source columns every after image keeps, changed or not: the target's generated columns
     * (left as the source wrote them) and those with an {@code ON UPDATE} default. A precaution: a
     * MariaDB 10.11 target applying a rows event does not set an {@code ON UPDATE} column the after
     * image leaves out (its {@code unpack_row} sets defaults for inserted rows only; with this rule
     * taken out, {@code LeanImagesIT}'s row changed without its timestamp still matched), but a
     * server that did would set its own time where the source kept the old value. Pure.
     */
    static BitSet keepInAfterImages(TableMap map, TableSchema table) {
        BitSet keep = new BitSet();
        int n = Math.min(map.columnCount(), table.columns().size());
        for (int i = 0; i < n; i++) {
            ColumnInfo c = table.columns().get(i);
            if (c.generated() || c.onUpdateDefault()) {
                keep.set(i);
            }
        }
        return keep;
    }

    /**
     * The source columns every before image must keep, or null when all images must stay whole: also
     * when the source's rows have another number of columns than the target table shows (a
     * system-versioned table's hidden period columns, of which the server's primary key holds the row
     * end, and a long unique key's hidden hash column: cut to the visible key, a DELETE of a
     * system-versioned row became a new current row) and for every system-versioned table. Pure.
     */
    static BitSet keepColumns(TableMap map, TableSchema table) {
        if (table.primaryKey().isEmpty() || !"InnoDB".equalsIgnoreCase(table.engine())
            || map.columnCount() != table.columns().size() || table.systemVersioned()) {
            return null;
        }
        BitSet keep = new BitSet();
        for (int column : table.primaryKey()) {
            if (column >= map.columnCount() || table.columns().get(column).generated()) {
                return null;
            }
            if (map.columnNames() != null && !map.columnNames().get(column)
                .equalsIgnoreCase(table.columns().get(column).name())) {
                return null; // the source's column at this position is another one
            }
            keep.set(column);
        }
        return keep;
    }
}
