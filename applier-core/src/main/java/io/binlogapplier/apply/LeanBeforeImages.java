package io.binlogapplier.apply;

import io.binlogapplier.binlog.KeyOnlyBeforeImages;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.transaction.Change;

import java.util.BitSet;

/**
 * Decides, per rows event sent as a BINLOG statement, whether its before images can shrink to the
 * target table's primary key ({@link KeyOnlyBeforeImages}), and shrinks them. Only where the
 * target provably finds rows by that key alone and reads nothing else of the image: a MariaDB
 * target, an InnoDB table with a PRIMARY KEY of whole, stored (not generated) columns, whose
 * positions are the same columns in the source's rows (a BINLOG statement matches columns by
 * position). Everything else goes as the source wrote it. Owned by one worker; not thread-safe.
 */
final class LeanBeforeImages {
    private final boolean enabled;
    /** The last table map asked about, and what was decided for it (a large statement repeats it). */
    private TableMap lastMap;
    private TableSchema lastSchema;
    private BitSet lastKeep;
    /** Before-image bytes left out since the last {@link #takeDropped}. */
    private long dropped;

    /** @param enabled false for a MySQL target, or when turned off by configuration */
    LeanBeforeImages(boolean enabled) {
        this.enabled = enabled;
    }

    /** The event with lean before images, or {@code r} itself. */
    Change.Rows apply(Change.Rows r, TableSchema table) {
        if (!enabled || r.body() == null || r.kind() == RowsKind.INSERT) {
            return r;
        }
        BitSet keep = keep(r.table(), table);
        if (keep == null) {
            return r;
        }
        byte[] body = KeyOnlyBeforeImages.trim(r.header().type(), r.body(), r.table(), keep);
        if (body == r.body()) {
            return r;
        }
        dropped += r.body().length - body.length;
        return new Change.Rows(r.table(), r.kind(), r.flags(), r.beforeColumns(), r.afterColumns(), r.rows(),
            r.sizeBytes(), r.header(), body);
    }

    /** Before-image bytes left out since the last call (or {@link #discard}). */
    long takeDropped() {
        long d = dropped;
        dropped = 0;
        return d;
    }

    /** The unit is rolled back: what it left out is not counted. */
    void discard() {
        dropped = 0;
    }

    private BitSet keep(TableMap map, TableSchema table) {
        if (map != lastMap || table != lastSchema) {
            lastMap = map;
            lastSchema = table;
            lastKeep = keepColumns(map, table);
        }
        return lastKeep;
    }

    /** The source columns every before image must keep, or null when the images must stay whole. Pure. */
    static BitSet keepColumns(TableMap map, TableSchema table) {
        if (table.primaryKey().isEmpty() || !"InnoDB".equalsIgnoreCase(table.engine())) {
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
