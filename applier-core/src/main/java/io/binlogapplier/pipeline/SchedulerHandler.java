package io.binlogapplier.pipeline;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.RingBuffer;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.schedule.Decision;
import io.binlogapplier.schedule.TransactionTraits;
import io.binlogapplier.schedule.UnitScheduler;
import io.binlogapplier.transaction.Transaction;

import java.sql.SQLException;
import java.util.function.LongConsumer;

/**
 * The first handler on the ring: annotates every transaction part with the scheduler's
 * {@link Decision} (unit, worker, what to wait for) before any worker sees it. Also where the
 * stream's end is noted. Thin: the logic is {@link UnitScheduler}'s.
 */
final class SchedulerHandler implements EventHandler<RingSlot> {
    private Sequence progress = new Sequence();
    private final UnitScheduler scheduler;
    private final TraitsBuilder traits;
    private final CommitSequencer sequencer;
    private final RingBuffer<RingSlot> ring;
    private final BinlogCoordinates replayStart;
    private final LongConsumer onEnd;
    /** How long a unit waits for a next transaction that is not on the ring yet. */
    static final long LINGER_NANOS = 5_000_000;
    /**
     * Lingering polls the ring with sleeps that double from the first to the longest: a fixed
     * 20 µs poll woke the scheduler a million times in a 20 s catch-up, a second of CPU.
     */
    private static final long LINGER_FIRST_PARK_NANOS = 20_000;
    private static final long LINGER_MAX_PARK_NANOS = 500_000;

    private final java.util.function.BooleanSupplier failed;
    private TransactionTraits current;
    private long lastDdlUnit;
    private long seenCommitted;
    private final String threadName;
    private final Faults faults;
    private final PipelineMetrics metrics;
    private java.util.function.Consumer<Transaction> scheduled = t -> { };
    private java.util.function.IntSupplier activeWorkers;

    /**
     * @param replayStart start of the transaction recorded as pending before a crash (null: none)
     * @param onEnd receives the last unit that will commit, once END passes
     */
    SchedulerHandler(String threadName, UnitScheduler scheduler, Faults faults, TraitsBuilder traits, CommitSequencer sequencer,
                     RingBuffer<RingSlot> ring, BinlogCoordinates replayStart, LongConsumer onEnd,
                     java.util.function.BooleanSupplier failed, PipelineMetrics metrics) {
        this.threadName = threadName;
        this.metrics = metrics;
        this.faults = faults;
        this.failed = failed;
        this.scheduler = scheduler;
        this.traits = traits;
        this.sequencer = sequencer;
        this.ring = ring;
        this.replayStart = replayStart;
        this.onEnd = onEnd;
    }

    /** Receives every whole transaction that is not a barrier once it is scheduled (read-ahead); must not block. */
    void onScheduled(java.util.function.Consumer<Transaction> consumer) {
        scheduled = consumer;
    }

    /** Under {@code workers: auto}: how many workers take new units, asked before each transaction part. */
    void activeWorkers(java.util.function.IntSupplier supplier) {
        activeWorkers = supplier;
    }

    @Override
    public void onStart() {
        Thread.currentThread().setName(threadName);
    }

    /**
     * Disruptor publishes a handler's progress only at the end of a batch; we publish it after every
     * slot, because a handler may block inside a batch while others need the slots it already passed
     * (a worker needs the scheduler's verdicts; the producer needs the ring space).
     */
    @Override
    public void setSequenceCallback(Sequence sequenceCallback) {
        this.progress = sequenceCallback;
    }

    @Override
    public void onEvent(RingSlot slot, long sequence, boolean endOfBatch) throws Exception {
        handle(slot, sequence, endOfBatch);
        // Not in a finally: a slot the scheduler failed on must not reach the workers before the
        // failure is recorded (the exception handler records it; the batch's end publishes later).
        progress.set(sequence);
    }

    private void handle(RingSlot slot, long sequence, boolean endOfBatch) throws Exception {
        catchUpCommits();
        if (slot.kind == RingSlot.Kind.END) {
            if (scheduler.unitOpen()) {
                scheduler.abandonOpenUnit();
                onEnd.accept(scheduler.lastUnit() - 1);
            } else {
                onEnd.accept(scheduler.lastUnit());
            }
            return;
        }
        if (slot.kind != RingSlot.Kind.TRANSACTION) {
            return;
        }
        Transaction t = slot.transaction;
        faults.at(Faults.Point.SCHEDULER_PART, t);
        if (activeWorkers != null) {
            scheduler.activeWorkers(activeWorkers.getAsInt());
        }
        if (t.part() == 0) {
            if (slot.traits == null) {
                slot.traits = traitsOf(t);
            }
            current = slot.traits;
            if (current.barrier()) {
                metrics.barrier(current.barrierReason());
            }
        }
        slot.traits = current;
        UnitScheduler.Lookahead next = null;
        if (t.lastPart() && (!endOfBatch || lingerForNext(sequence))) {
            next = lookahead(sequence + 1, current);
        }
        Decision d = scheduler.schedule(t, current, next, System.nanoTime(), sequencer.committed());
        slot.decision = d;
        slot.replay = replayStart != null && t.head().start().equals(replayStart);
        if (t.changesTableDefinitions()) {
            // (GRANT, ANALYZE, TRUNCATE … are barriers too, but leave the definitions later transactions read)
            lastDdlUnit = d.unitId();
        } else if (t.whole() && !current.barrier()) {
            scheduled.accept(t);
        }
    }

    /**
     * The ring has nothing after this transaction right now. Rather than end the unit at once (one
     * commit per transaction whenever the workers outpace the reader), wait briefly for the next
     * one: up to {@link #LINGER_NANOS}, and never past the unit's delay bound.
     *
     * @return true when the next slot arrived in time
     */
    private boolean lingerForNext(long sequence) {
        if (current.barrier() || !scheduler.unitOpen()) {
            return false;
        }
        long wait = Math.min(LINGER_NANOS, scheduler.openUnitTimeLeft(System.nanoTime()));
        long deadline = System.nanoTime() + wait;
        long park = LINGER_FIRST_PARK_NANOS;
        while (ring.getCursor() <= sequence) {
            long now = System.nanoTime();
            if (now >= deadline || failed.getAsBoolean()) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(park, deadline - now));
            park = Math.min(park * 2, LINGER_MAX_PARK_NANOS);
        }
        return true;
    }

    private UnitScheduler.Lookahead lookahead(long seq, TransactionTraits mine) throws Exception {
        RingSlot next = ring.get(seq);
        if (next.kind != RingSlot.Kind.TRANSACTION) {
            return new UnitScheduler.Lookahead.Marker();
        }
        Transaction nt = next.transaction;
        if (nt.part() != 0 || mine.barrier()) {
            // The unit ends whatever follows; no need to look the next transaction up.
            return new UnitScheduler.Lookahead.Marker();
        }
        if (next.traits == null) {
            next.traits = traitsOf(nt);
        }
        return new UnitScheduler.Lookahead.Next(nt, next.traits);
    }

    private TransactionTraits traitsOf(Transaction t) throws SQLException, InterruptedException {
        if (!t.implicitCommit() && lastDdlUnit > sequencer.committed()) {
            // Table metadata must reflect every earlier DDL before we look tables up.
            sequencer.awaitCommitted(lastDdlUnit);
        }
        return traits.of(t);
    }

    private void catchUpCommits() {
        long c = sequencer.committed();
        while (seenCommitted < c) {
            scheduler.committed(++seenCommitted);
        }
    }
}
