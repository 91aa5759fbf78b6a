package io.binlogapplier.pipeline;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.YieldingWaitStrategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The END marker: published even when the reader thread ends interrupted while the ring is full. */
class PublisherTest {
    /** Only a guard against a hang: no assertion depends on how long anything takes. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(10);

    /**
     * A stop interrupts the reader thread (BinlogReader.stop), which then ends the stream with
     * {@code end()}; the workers are still busy, so the ring is full. END must still be published once a
     * slot is free: without it the pipeline never learns the stream ended, waits out its stop timeout
     * and exits as if the units had hung (exit 40).
     */
    @Test
    void endWaitsForASlotThoughTheReaderThreadWasInterrupted() throws Exception {
        RingBuffer<RingSlot> ring = RingBuffer.createSingleProducer(RingSlot::new, 4, new YieldingWaitStrategy());
        Sequence consumer = new Sequence(-1);
        ring.addGatingSequences(consumer);
        for (int i = 0; i < 4; i++) {
            ring.publish(ring.next());
        }
        FailureLatch failure = new FailureLatch();
        Publisher publisher = new Publisher(ring, Long.MAX_VALUE, failure, null, null, () -> { }, PipelineMetrics.NONE);

        CompletableFuture<Boolean> interruptedAfter = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            Thread.currentThread().interrupt();
            try {
                publisher.end(false);
                interruptedAfter.complete(Thread.currentThread().isInterrupted());
            } catch (Throwable t) {
                interruptedAfter.completeExceptionally(t);
            }
        }, "test-reader");
        reader.start();
        Thread.sleep(50); // whether end() has begun waiting or not, the outcome is the same
        assertThat(interruptedAfter).as("the ring is full: END waits for a slot").isNotDone();

        consumer.set(0); // a worker passes one slot

        assertTimeoutPreemptively(HANG_GUARD, () -> {
            assertThat(interruptedAfter.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS))
                .as("the interrupt is kept for the reader thread").isTrue();
        });
        assertThat(ring.getCursor()).isEqualTo(4);
        assertThat(ring.get(4).kind).isEqualTo(RingSlot.Kind.END);
        assertThat(failure.failed()).isFalse();
    }

    /** A failed pipeline needs no END: a full ring does not hold the reader thread. */
    @Test
    void endGivesUpOnAFullRingOnceThePipelineFailed() {
        RingBuffer<RingSlot> ring = RingBuffer.createSingleProducer(RingSlot::new, 4, new YieldingWaitStrategy());
        ring.addGatingSequences(new Sequence(-1));
        for (int i = 0; i < 4; i++) {
            ring.publish(ring.next());
        }
        FailureLatch failure = new FailureLatch();
        failure.fail(new io.binlogapplier.ApplierException(io.binlogapplier.ExitCode.INTERNAL, "planted"));
        Publisher publisher = new Publisher(ring, Long.MAX_VALUE, failure, null, null, () -> { }, PipelineMetrics.NONE);

        assertTimeoutPreemptively(HANG_GUARD, () -> publisher.end(false));
        assertThat(ring.getCursor()).isEqualTo(3);
    }
}
