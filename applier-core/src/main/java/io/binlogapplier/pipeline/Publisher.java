package io.binlogapplier.pipeline;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.transaction.Transaction;
import io.binlogapplier.transaction.TransactionAssembler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Puts assembled transactions on the ring, on the reader thread. Back-pressure comes from two
 * bounds: free ring entries, and bytes received but not yet committed ({@code ring_bytes}); both
 * waits end when the pipeline fails or stops, so a full ring never wedges a shutdown.
 */
final class Publisher implements TransactionAssembler.Sink {
    private static final Logger log = LoggerFactory.getLogger(Publisher.class);
    private final RingBuffer<RingSlot> ring;
    private final long maxBytes;
    private final FailureLatch failure;
    private final BinlogCoordinates until;
    private final Runnable onUntilReached;
    private final GtidGoal.Progress untilGtid;
    /** The transaction being published completes {@link #untilGtid}: end after its last part. */
    private boolean endAfterThis;
    private final PipelineMetrics metrics;
    private final AtomicLong bytesInFlight = new AtomicLong();
    private volatile boolean closed;
    private volatile BinlogCoordinates received;

    /**
     * @param until stop once the stream passes this position (null: never)
     * @param untilGtid stop once the transactions published complete this GTID goal (null: never)
     * @param onUntilReached called once, on the reader thread, right after END was published for until
     */
    Publisher(RingBuffer<RingSlot> ring, long maxBytes, FailureLatch failure, BinlogCoordinates until,
              GtidGoal.Progress untilGtid, Runnable onUntilReached, PipelineMetrics metrics) {
        this.metrics = metrics;
        this.ring = ring;
        this.maxBytes = maxBytes;
        this.failure = failure;
        this.until = until;
        this.untilGtid = untilGtid;
        this.onUntilReached = onUntilReached;
    }

    @Override
    public void transaction(Transaction part) throws InterruptedException {
        if (closed) {
            return;
        }
        if (untilGtid != null && part.part() == 0 && part.head().gtid() != null) {
            GtidGoal.Step step = untilGtid.next(part.head().gtid());
            if (step == GtidGoal.Step.PAST) {
                log.warn("--until: the binlog from the start position on has no {}; stopping before {}, the first"
                    + " transaction past it",
                    untilGtid.outstanding(), part.head().gtid());
                end(false);
                onUntilReached.run();
                return;
            }
            endAfterThis = step == GtidGoal.Step.REACHED;
        }
        reserve(part.sizeBytes());
        long seq = claim();
        if (seq < 0) {
            return;
        }
        // Counted before the workers can see it, so the received count never trails the applied one.
        metrics.received(part);
        try {
            ring.get(seq).set(part);
        } finally {
            ring.publish(seq);
        }
        if (endAfterThis && part.lastPart()) {
            end(false);
            onUntilReached.run();
        }
    }

    @Override
    public void heartbeat(BinlogCoordinates position, long timestampSeconds) throws InterruptedException {
        if (closed) {
            return;
        }
        received = position;
        // A heartbeat is sent when the source has nothing newer: its position is the source's binlog end.
        metrics.readerAt(position);
        metrics.sourceEnd(position);
        if (until != null && position.atOrAfter(until)) {
            end(false);
            onUntilReached.run();
            return;
        }
        try {
            long seq = ring.tryNext();
            try {
                ring.get(seq).marker(RingSlot.Kind.HEARTBEAT, position, timestampSeconds, false);
            } finally {
                ring.publish(seq);
            }
        } catch (InsufficientCapacityException full) {
            // the ring is busy: this heartbeat says nothing a transaction will not say soon
        }
    }

    @Override
    public void passed(BinlogCoordinates position) throws InterruptedException {
        received = position;
        metrics.readerAt(position);
        if (until != null && !closed && position.atOrAfter(until)) {
            end(false);
            onUntilReached.run();
        }
    }

    /**
     * Publishes END once: no more slots follow. It waits for a free slot even on an interrupted
     * thread (a stop interrupts the reader, which then ends the stream here): the pipeline learns
     * only from END that the stream ended, and without it would wait out its stop timeout. The wait
     * ends when a worker frees a slot or the pipeline fails; the interrupt is kept for the caller.
     */
    void end(boolean abandoned) throws InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        boolean interrupted = Thread.interrupted();
        long seq;
        while (true) {
            try {
                seq = claim();
                break;
            } catch (InterruptedException again) {
                interrupted = true; // another stop request: END is still owed
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (seq < 0) {
            return;
        }
        try {
            ring.get(seq).marker(RingSlot.Kind.END, received, 0, abandoned);
        } finally {
            ring.publish(seq);
        }
    }

    boolean ended() {
        return closed;
    }

    /** The newest source position the stream passed. */
    BinlogCoordinates received() {
        return received;
    }

    long bytesInFlight() {
        return bytesInFlight.get();
    }

    /** Bytes of committed (or discarded) transactions leave the budget. */
    void release(long bytes) {
        bytesInFlight.addAndGet(-bytes);
    }

    private void reserve(long bytes) throws InterruptedException {
        long park = 50_000;
        // One transaction is always admitted when nothing else is in flight, however large.
        while (bytesInFlight.get() > 0 && bytesInFlight.get() + bytes > maxBytes) {
            if (failure.failed()) {
                return;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            LockSupport.parkNanos(park);
            park = Math.min(park * 2, 5_000_000);
        }
        bytesInFlight.addAndGet(bytes);
    }

    /** A free slot, or -1 when the pipeline failed while waiting for one. */
    private long claim() throws InterruptedException {
        long park = 20_000;
        while (true) {
            try {
                return ring.tryNext();
            } catch (InsufficientCapacityException full) {
                if (failure.failed()) {
                    return -1;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, 2_000_000);
            }
        }
    }
}
