package io.binlogapplier.pipeline;

import io.binlogapplier.schedule.Decision;
import io.binlogapplier.transaction.Transaction;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The unit a worker is applying: which one, the parts it keeps for a retry and which of them the
 * open target transaction holds, the bytes it holds against the ring budget, its rows, and what its
 * runs so far have learnt (retries, redone as SQL). Closed (id 0) between units. Owned by one worker
 * and used on its thread only.
 *
 * <p>Parts the scheduler put in the unit's tail ({@link Decision#deferred()}) are applied after the
 * others, once {@link #openTail} is called (the earlier units they wait for committed). After a
 * rollback every part is applied in source order, so a failure the reordering caused cannot recur;
 * until the tail is open that order stops at the tail's first part.
 */
final class UnitInProgress {
    private long id;
    private Decision decision;
    private final List<Transaction> parts = new ArrayList<>();
    /** Indexes of the parts in the tail. */
    private final BitSet tail = new BitSet();
    /** The tail's parts wait for this unit to commit (0: none). */
    private long tailWait;
    private boolean tailOpen;
    /** Every part in source order, the tail's too (after a rollback). */
    private boolean inOrder;
    /** Next part to consider outside the tail (every part, in order), and in the tail. */
    private int headNext;
    private int tailNext;
    /** The part {@link #nextToApply} returned last. */
    private int current;
    private boolean currentInTail;
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
        tail.clear();
        tailWait = 0;
        tailOpen = false;
        inOrder = false;
        rewind();
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
        rows += t.rowChanges();
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

    /**
     * Keeps {@code t} to apply, and to apply again after a rollback; a {@code deferred} part goes to the
     * tail, which waits for unit {@code joinWait} (0: none) besides the units the unit began after.
     */
    void keep(Transaction t, boolean deferred, long joinWait) {
        if (deferred) {
            tail.set(parts.size());
            tailWait = Math.max(tailWait, joinWait);
        }
        parts.add(t);
    }

    /** The tail holds parts not yet applied, which wait for {@link #openTail}. */
    boolean tailWaiting() {
        return !tailOpen && !tail.isEmpty();
    }

    /** The unit the tail waits for (0: none). */
    long tailWait() {
        return tailWait;
    }

    /** The tail's wait is over: its parts may be applied (after every other part, unless in source order). */
    void openTail() {
        tailOpen = true;
    }

    /** Parts in the tail (0 once applied in source order after a rollback: then none went last). */
    int tailParts() {
        return inOrder ? 0 : tail.cardinality();
    }

    /** The open target transaction holds (or will hold) parts in another order than the source's. */
    boolean reordered() {
        return tailParts() > 0;
    }

    /** {@code n} of the unit's bytes went back to the ring budget (a barrier's applied part). */
    void released(long n) {
        bytes -= n;
    }

    /** The next kept part the open target transaction does not hold yet, null when none. */
    Transaction nextToApply() {
        int i = inOrder ? headNext : tail.nextClearBit(headNext);
        if (inOrder && !tailOpen && tail.get(i)) {
            return null; // in source order, the tail's first part still waits for its units
        }
        if (i < parts.size()) {
            current = i;
            currentInTail = false;
            return parts.get(i);
        }
        if (tailOpen && !inOrder) {
            int j = tail.nextSetBit(tailNext);
            if (j >= 0 && j < parts.size()) {
                current = j;
                currentInTail = true;
                return parts.get(j);
            }
        }
        return null;
    }

    /** The part {@link #nextToApply} returned is now in the open target transaction. */
    void applied() {
        if (currentInTail) {
            tailNext = current + 1;
        } else {
            headNext = current + 1;
        }
    }

    /**
     * The target transaction was rolled back: every kept part is to be applied again, in source order
     * (from the tail's first part on only once {@link #openTail} was called).
     */
    void rolledBack() {
        inOrder = true;
        rewind();
    }

    /** No part is in the open target transaction. */
    private void rewind() {
        headNext = 0;
        tailNext = 0;
        current = 0;
        currentInTail = false;
    }

    /** The part being applied (the last one applied when all are), null when the unit keeps none. */
    Transaction current() {
        return parts.isEmpty() ? null : parts.get(Math.min(current, parts.size() - 1));
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
