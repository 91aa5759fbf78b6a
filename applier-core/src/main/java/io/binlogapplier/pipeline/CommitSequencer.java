package io.binlogapplier.pipeline;

import io.binlogapplier.position.SourcePosition;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Commit order: units commit strictly in id order. Tracks the low-water mark (the newest unit such
 * that it and every unit before it committed) and lets stages wait for a unit to commit. Waits end
 * early when the pipeline fails.
 */
final class CommitSequencer {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final FailureLatch failure;
    private volatile long committed;
    private volatile SourcePosition lowWater;
    private volatile long lowWaterCommitMicros;
    private volatile long committedTransactions;
    private volatile long committedRows;
    private volatile Runnable onCommit = () -> { };

    CommitSequencer(FailureLatch failure, SourcePosition start, long startCommitMicros) {
        this.failure = failure;
        this.lowWater = start;
        this.lowWaterCommitMicros = startCommitMicros;
        failure.whenFailed(this::wakeAll);
    }

    /** Runs {@code r} after every commit (on the committing thread); it must not block. */
    void onCommit(Runnable r) {
        onCommit = r;
    }

    /** The newest unit id committed (0 before the first). */
    long committed() {
        return committed;
    }

    SourcePosition lowWater() {
        return lowWater;
    }

    long lowWaterCommitMicros() {
        return lowWaterCommitMicros;
    }

    long committedTransactions() {
        return committedTransactions;
    }

    long committedRows() {
        return committedRows;
    }

    /** Blocks until unit {@code unitId} committed; throws when the pipeline failed meanwhile. */
    void awaitCommitted(long unitId) throws InterruptedException {
        awaitCommitted(unitId, null);
    }

    /**
     * As {@link #awaitCommitted(long)}, and throws {@link WorkerState.Preempted} when {@code waiter}'s
     * unit is preempted while it waits (it holds locks an earlier unit needs).
     */
    void awaitCommitted(long unitId, WorkerState waiter) throws InterruptedException {
        if (committed >= unitId) {
            return;
        }
        lock.lock();
        try {
            while (committed < unitId) {
                failure.check();
                if (waiter != null) {
                    waiter.checkPreempted();
                }
                changed.await(100, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    void markCommitted(long unitId, SourcePosition after, long commitMicros, int transactions, long rows) {
        lock.lock();
        try {
            if (unitId != committed + 1) {
                throw new IllegalStateException("unit " + unitId + " committed out of order after " + committed);
            }
            lowWater = after;
            lowWaterCommitMicros = commitMicros;
            committedTransactions += transactions;
            committedRows += rows;
            committed = unitId;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        onCommit.run();
    }

    void wakeAll() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
