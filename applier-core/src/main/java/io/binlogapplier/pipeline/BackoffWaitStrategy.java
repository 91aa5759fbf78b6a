package io.binlogapplier.pipeline;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin briefly, yield, then park with a growing sleep (up to 2 ms). Disruptor's blocking
 * strategies busy-spin while a handler waits for a slower handler ahead of it, and our workers sit
 * in database calls for milliseconds: on a two-core machine that spin would steal the target's
 * CPU. An idle pipeline wakes each thread about 500 times a second.
 */
final class BackoffWaitStrategy implements WaitStrategy {
    private static final int SPINS = 100;
    private static final int YIELDS = 20;
    private static final long MAX_PARK_NANOS = 2_000_000;

    @Override
    public long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
        throws AlertException {
        long available;
        int counter = 0;
        long park = 20_000;
        while ((available = dependentSequence.get()) < sequence) {
            barrier.checkAlert();
            if (counter < SPINS) {
                Thread.onSpinWait();
            } else if (counter < SPINS + YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(park);
                park = Math.min(park * 2, MAX_PARK_NANOS);
            }
            counter++;
        }
        return available;
    }

    @Override
    public void signalAllWhenBlocking() {
        // parked waiters time out by themselves
    }
}
