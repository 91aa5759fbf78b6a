package io.binlogapplier.pipeline;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class StopSignalTest {
    /** Only a guard against a hang: no assertion depends on how long anything takes. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(5);

    private final StopSignal stop = new StopSignal();

    @Test
    void awaitReturnsFalseWhenNoStopCameInTime() throws Exception {
        assertThat(stop.requested()).isFalse();
        assertThat(stop.await(10)).isFalse();
        assertThat(stop.requested()).isFalse();
    }

    @Test
    void onceRequestedAwaitReturnsTrueAtOnceEveryTime() {
        stop.request();
        assertThat(stop.requested()).isTrue();
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            assertThat(stop.await(Long.MAX_VALUE / 2)).isTrue();
            assertThat(stop.await(0)).as("it stays requested").isTrue();
        });
    }

    @Test
    void aSecondRequestIsHarmless() throws Exception {
        stop.request();
        stop.request();
        assertThat(stop.requested()).isTrue();
        assertThat(stop.await(0)).isTrue();
    }

    @Test
    void aWaiterBlockedInAwaitIsWokenByARequestFromAnotherThread() throws Exception {
        CountDownLatch calling = new CountDownLatch(1);
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            calling.countDown();
            try {
                result.complete(stop.await(Long.MAX_VALUE / 2));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "waiter");
        waiter.setDaemon(true);
        waiter.start();

        assertTimeoutPreemptively(HANG_GUARD, () -> {
            calling.await();
            while (waiter.getState() != Thread.State.TIMED_WAITING) {
                assertThat(result).as("await returned before any request").isNotDone();
                Thread.yield();
            }
        });
        assertThat(result).isNotDone();

        stop.request();

        assertThat(assertTimeoutPreemptively(HANG_GUARD, () -> result.get())).isTrue();
    }
}
