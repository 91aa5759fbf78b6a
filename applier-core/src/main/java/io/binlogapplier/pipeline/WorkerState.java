package io.binlogapplier.pipeline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the conflict monitor may know of one worker: its target connection id, the unit it is
 * applying (0: none) and whether an earlier unit asked it to give way.
 */
final class WorkerState {
    volatile long connectionId;
    volatile long unit;
    /**
     * The stream sequence number of the transaction the worker applies now, or applied last (0:
     * none yet): where read-ahead stops reading what a worker has passed.
     */
    volatile long applying;
    /** System.nanoTime() when the worker's current database call began, 0 when it is not in one. */
    volatile long busySince;
    /** The earlier unit blocked by this worker's current unit, 0 when none. */
    final AtomicLong preemptedBy = new AtomicLong();

    /** Asks the worker to roll its unit back, if it is still applying {@code victimUnit}. */
    boolean preempt(long victimUnit, long blockedUnit) {
        return unit == victimUnit && preemptedBy.compareAndSet(0, blockedUnit);
    }

    /** Throws {@link Preempted} when an earlier unit waits for this worker's locks. */
    void checkPreempted() {
        long by = preemptedBy.get();
        if (by != 0) {
            throw new Preempted(by);
        }
    }

    /** An earlier unit needs this unit's locks: roll back and retry after it. */
    static final class Preempted extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final long blockedUnit;

        Preempted(long blockedUnit) {
            super("preempted by unit " + blockedUnit, null, false, false);
            this.blockedUnit = blockedUnit;
        }
    }
}
