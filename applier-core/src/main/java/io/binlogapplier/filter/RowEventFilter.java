package io.binlogapplier.filter;

import io.binlogapplier.binlog.BinlogEvent;
import io.binlogapplier.binlog.EventEncoder;
import io.binlogapplier.binlog.TableMap;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The filter's row stage, between decoding and transaction assembly: rows events of tables the
 * filter leaves out are dropped with their TABLE_MAP, so nothing downstream (write sets, barriers,
 * units, BINLOG statements) ever sees them; TABLE_MAPs of renamed schemas are rewritten, name and
 * raw body, so every later stage uses the target schema. A transaction left with no changes still
 * ends (XID/COMMIT pass through) and so still advances the position.
 *
 * <p>A source statement's rows events all precede the one flagged STMT_END_F, which tells the
 * target the statement is over. When that last event is dropped (a trigger on a kept table writing
 * to an excluded audit table, say), the last rows event kept for the statement gets the flag
 * instead; to do so this stage holds a kept rows event without the flag until the next event
 * shows whether the statement goes on. Not thread-safe: the reader thread's.
 */
public final class RowEventFilter {

    /** Where kept events go (the transaction assembler). */
    public interface Downstream {
        void accept(BinlogEvent event) throws InterruptedException;
    }

    private final ReplicationFilter filter;
    private final Downstream next;
    /** Told of every rows event dropped (for the metric of row events filtered out). */
    private final Runnable dropped;
    /** Table ids whose latest TABLE_MAP names a table the filter leaves out. */
    private final Set<Long> excluded = new HashSet<>();
    /** A kept rows event without STMT_END_F, then the table maps that came after it. */
    private final List<BinlogEvent> held = new ArrayList<>();
    /** What one call passes on (reused: one call per event on the hot path). */
    private final List<BinlogEvent> out = new ArrayList<>();

    public RowEventFilter(ReplicationFilter filter, Downstream next) {
        this(filter, next, () -> { });
    }

    /** @param dropped runs once per rows event dropped (reader thread; must be cheap) */
    public RowEventFilter(ReplicationFilter filter, Downstream next, Runnable dropped) {
        this.filter = filter;
        this.next = next;
        this.dropped = dropped;
    }

    public void accept(BinlogEvent event) throws InterruptedException {
        List<BinlogEvent> out = this.out;
        if (event instanceof BinlogEvent.Payload p) {
            // A MySQL compressed transaction: filter its events as one stream of their own, lazily, as
            // the assembler pulls them (a payload is never decoded whole).
            release(held, out);
            out.add(new BinlogEvent.Payload(p.header(), () -> new Filtered(p.inner().iterator())));
        } else {
            step(event, held, out);
        }
        try {
            for (int i = 0; i < out.size(); i++) {
                next.accept(out.get(i));
            }
        } finally {
            out.clear();
        }
    }

    private void step(BinlogEvent e, List<BinlogEvent> hold, List<BinlogEvent> out) {
        if (e instanceof BinlogEvent.TableMapped t) {
            BinlogEvent kept = tableMap(t);
            if (kept != null) {
                (hold.isEmpty() ? out : hold).add(kept);
            }
        } else if (e instanceof BinlogEvent.Rows r) {
            boolean ends = (r.flags() & BinlogEvent.Rows.FLAG_STMT_END) != 0;
            if (excluded.contains(r.tableId())) {
                dropped.run();
                if (ends && !hold.isEmpty()) {
                    hold.set(0, withStatementEnd((BinlogEvent.Rows) hold.get(0)));
                    release(hold, out);
                }
                return;
            }
            release(hold, out);
            (ends ? out : hold).add(r);
        } else {
            if (e instanceof BinlogEvent.FormatDescription || e instanceof BinlogEvent.Rotate) {
                excluded.clear(); // table ids are only valid within one binlog file
            }
            release(hold, out);
            out.add(e);
        }
    }

    /** The kept events of a payload, stepped through the filter one inner event at a time. */
    private final class Filtered implements java.util.Iterator<BinlogEvent> {
        private final java.util.Iterator<BinlogEvent> source;
        private final List<BinlogEvent> hold = new ArrayList<>();
        private final java.util.ArrayDeque<BinlogEvent> ready = new java.util.ArrayDeque<>();
        private final List<BinlogEvent> step = new ArrayList<>();

        Filtered(java.util.Iterator<BinlogEvent> source) {
            this.source = source;
        }

        @Override
        public boolean hasNext() {
            while (ready.isEmpty()) {
                if (source.hasNext()) {
                    step(source.next(), hold, step);
                } else if (!hold.isEmpty()) {
                    release(hold, step);
                } else {
                    return false;
                }
                ready.addAll(step);
                step.clear();
            }
            return true;
        }

        @Override
        public BinlogEvent next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            return ready.poll();
        }
    }

    private BinlogEvent tableMap(BinlogEvent.TableMapped t) {
        TableMap m = t.map();
        if (!filter.replicates(m.schema(), m.table())) {
            excluded.add(m.tableId());
            return null;
        }
        excluded.remove(m.tableId());
        String target = filter.target(m.schema());
        return target.equals(m.schema()) ? t : new BinlogEvent.TableMapped(t.header(), m.withSchema(target));
    }

    private static void release(List<BinlogEvent> hold, List<BinlogEvent> out) {
        if (!hold.isEmpty()) {
            out.addAll(hold);
            hold.clear();
        }
    }

    static BinlogEvent.Rows withStatementEnd(BinlogEvent.Rows r) {
        return new BinlogEvent.Rows(r.header(), r.kind(), r.tableId(), r.flags() | BinlogEvent.Rows.FLAG_STMT_END,
            r.beforeColumns(), r.afterColumns(), r.rows(), r.sizeBytes(),
            r.body() == null ? null : EventEncoder.rowsWithStatementEnd(r.body()));
    }
}
