package io.binlogapplier.pipeline;

import io.binlogapplier.schedule.Decision;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.Transaction;

import java.util.ArrayList;
import java.util.List;

/**
 * The unit a worker is applying: which one, the parts it keeps for a retry and how many of them
 * the open target transaction holds, the bytes it holds against the ring budget, its rows, and
 * what its runs so far have learnt (retries, redone as SQL). Closed (id 0) between units. Owned by
 * one worker and used on its thread only.
 */
final class UnitInProgress {
    private long id;
    private Decision decision;
    private final List<Transaction> parts = new ArrayList<>();
    private int applied;
    private long bytes;
    private long rows;
    private long commitMicros;
    /** The last transaction received ended in ROLLBACK on the source. */
    private boolean endsInRollback;
    private boolean replay;
    private boolean startedAlone;
    private boolean serialRetried;
    private boolean redoneAsSql;
    private int attempts;

    /**
     * Opens unit {@code d}.
     *
     * @param replay its transactions may have been applied, in part, before a crash
     * @param startedAlone every earlier unit had committed when it began
     */
    void begin(Decision d, boolean replay, boolean startedAlone) {
        reset();
        this.id = d.unitId();
        this.decision = d;
        this.replay = replay;
        this.startedAlone = startedAlone;
    }

    /** Closes the unit: committed, or dropped because the stream ended inside it. */
    void reset() {
        id = 0;
        decision = null;
        parts.clear();
        applied = 0;
        bytes = 0;
        rows = 0;
        commitMicros = 0;
        endsInRollback = false;
        replay = false;
        startedAlone = false;
        serialRetried = false;
        redoneAsSql = false;
        attempts = 0;
    }

    boolean isOpen() {
        return id != 0;
    }

    long id() {
        return id;
    }

    /** The decision of the unit's first part. */
    Decision decision() {
        return decision;
    }

    /** Counts a part the unit received: its bytes, its rows, and the commit time of a transaction it ends. */
    void received(Transaction t) {
        bytes += t.sizeBytes();
        for (Change c : t.changes()) {
            if (c instanceof Change.Rows r) {
                rows += r.rowCount();
            }
        }
        if (t.lastPart()) {
            commitMicros = t.end().commitMicros();
            endsInRollback = t.end().rollback();
        }
    }

    /**
     * The source rolled back the unit's (last) transaction: only its non-transactional changes stay.
     * Known from its last part whether or not parts are kept (a barrier keeps none).
     */
    boolean endsInRollback() {
        return endsInRollback;
    }

    /** Keeps {@code t} to apply, and to apply again after a rollback. */
    void keep(Transaction t) {
        parts.add(t);
    }

    /** {@code n} of the unit's bytes went back to the ring budget (a barrier's applied part). */
    void released(long n) {
        bytes -= n;
    }

    /** The next kept part the open target transaction does not hold yet, null when none. */
    Transaction nextToApply() {
        return applied < parts.size() ? parts.get(applied) : null;
    }

    /** The part {@link #nextToApply} returned is now in the open target transaction. */
    void applied() {
        applied++;
    }

    /** The target transaction was rolled back: every kept part is to be applied again. */
    void rolledBack() {
        applied = 0;
    }

    /** The part being applied (the last one when all are), null when the unit keeps none. */
    Transaction current() {
        return parts.isEmpty() ? null : parts.get(Math.min(applied, parts.size() - 1));
    }

    /** The newest kept part, null when none. */
    Transaction last() {
        return parts.isEmpty() ? null : parts.get(parts.size() - 1);
    }

    /** The unit is retried; {@code afterDataConflict}: after every earlier unit, for a data conflict. */
    void retrying(boolean afterDataConflict) {
        attempts++;
        if (afterDataConflict) {
            serialRetried = true;
        }
    }

    /** From now on the unit is applied as SQL, row by row. */
    void redoAsSql() {
        redoneAsSql = true;
    }

    long bytes() {
        return bytes;
    }

    long rows() {
        return rows;
    }

    /** The source commit time of the newest transaction the unit completed. */
    long commitMicros() {
        return commitMicros;
    }

    boolean replay() {
        return replay;
    }

    boolean startedAlone() {
        return startedAlone;
    }

    boolean serialRetried() {
        return serialRetried;
    }

    boolean redoneAsSql() {
        return redoneAsSql;
    }

    int attempts() {
        return attempts;
    }
}
