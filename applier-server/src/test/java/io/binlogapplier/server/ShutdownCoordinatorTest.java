package io.binlogapplier.server;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Stop requests are never lost and run the stop action once; installShutdownHook is never called here. */
class ShutdownCoordinatorTest {
    /** Only a guard against a hang: no assertion depends on how long anything takes. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(5);

    private final ShutdownCoordinator coordinator = new ShutdownCoordinator();

    @Test
    void aStopRequestedBeforeTheActionRegistersIsHandedToItAtRegistration() {
        List<String> ran = new ArrayList<>();
        coordinator.requestStop();
        assertThat(coordinator.stopRequested()).isTrue();
        assertThat(ran).isEmpty();

        coordinator.onStop(() -> ran.add("stop on " + Thread.currentThread().getName()));

        assertThat(ran).containsExactly("stop on " + Thread.currentThread().getName());
    }

    @Test
    void aStopRequestedAfterRegistrationRunsTheActionOnce() {
        AtomicInteger runs = new AtomicInteger();
        coordinator.onStop(runs::incrementAndGet);
        assertThat(runs.get()).as("registering does not stop").isZero();
        assertThat(coordinator.stopRequested()).isFalse();

        coordinator.requestStop();
        assertThat(runs.get()).isEqualTo(1);

        coordinator.requestStop();
        assertThat(runs.get()).as("a second request is a no-op").isEqualTo(1);
    }

    @Test
    void repeatedRequestsBeforeRegistrationStillRunTheActionOnlyOnce() {
        AtomicInteger runs = new AtomicInteger();
        coordinator.requestStop();
        coordinator.requestStop();
        coordinator.onStop(runs::incrementAndGet);
        coordinator.requestStop();
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void aStopRacingWithRegistrationRunsTheActionExactlyOnce() throws Exception {
        for (int round = 0; round < 200; round++) {
            ShutdownCoordinator c = new ShutdownCoordinator();
            AtomicInteger runs = new AtomicInteger();
            CyclicBarrier both = new CyclicBarrier(2);
            Thread requester = new Thread(() -> {
                await(both);
                c.requestStop();
            }, "requester-" + round);
            requester.setDaemon(true);
            requester.start();
            await(both);
            c.onStop(runs::incrementAndGet);
            requester.join(HANG_GUARD.toMillis());
            assertThat(requester.isAlive()).isFalse();
            assertThat(runs.get()).as("round %d", round).isEqualTo(1);
        }
    }

    @Test
    void finishedWakesTheWaiterWithTheExitCode() throws Exception {
        coordinator.finished(10);

        assertThat(coordinator.awaitFinished(0)).isTrue();
        assertThat(coordinator.exitCode()).isEqualTo(10);
    }

    @Test
    void aStopThatDoesNotFinishInTimeEndsWith40AndOneThatDoesWithTheCommandsCode() throws Exception {
        assertThat(coordinator.exitCodeWithin(10)).isEqualTo(40);
        coordinator.finished(23);
        assertThat(coordinator.exitCodeWithin(10)).isEqualTo(23);
    }

    @Test
    void awaitFinishedTimesOutFalseBeforeTheCommandFinished() throws Exception {
        assertThat(coordinator.awaitFinished(10)).isFalse();
        assertThat(coordinator.exitCode()).isZero();
    }

    @Test
    void aWaiterBlockedInAwaitFinishedIsWokenByFinishedFromAnotherThread() throws Exception {
        CountDownLatch calling = new CountDownLatch(1);
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        Thread hook = new Thread(() -> {
            calling.countDown();
            try {
                boolean done = coordinator.awaitFinished(Long.MAX_VALUE / 2);
                seen.add(coordinator.exitCode());
                result.complete(done);
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "shutdown-hook-like");
        hook.setDaemon(true);
        hook.start();
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            calling.await();
            while (hook.getState() != Thread.State.TIMED_WAITING) {
                assertThat(result).as("returned before finished").isNotDone();
                Thread.yield();
            }
        });

        coordinator.finished(3);

        assertThat(assertTimeoutPreemptively(HANG_GUARD, () -> result.get())).isTrue();
        assertThat(seen).as("the waiter sees the code set before the wake-up").containsExactly(3);
    }

    @Test
    void aLaterRegistrationAfterAStopRunsTheNewActionToo() {
        List<String> ran = new ArrayList<>();
        coordinator.onStop(() -> ran.add("first"));
        coordinator.requestStop();
        coordinator.onStop(() -> ran.add("second"));
        coordinator.requestStop();
        assertThat(ran).containsExactly("first", "second");
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(HANG_GUARD.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
