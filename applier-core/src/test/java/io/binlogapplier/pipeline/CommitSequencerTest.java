package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Commit order, the low-water mark and waiting for commits, without any database. */
class CommitSequencerTest {
    /** Only a guard against a hang: no assertion depends on how long anything takes. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(5);

    private static final SourcePosition START = at(4);

    private final FailureLatch failure = new FailureLatch();
    private final CommitSequencer sequencer = new CommitSequencer(failure, START, 1_000L);

    @Test
    void beforeAnyCommitTheLowWaterMarkIsTheStartAndNothingIsCommitted() {
        assertThat(sequencer.committed()).isZero();
        assertThat(sequencer.lowWater()).isEqualTo(START);
        assertThat(sequencer.lowWaterCommitMicros()).isEqualTo(1_000L);
        assertThat(sequencer.committedTransactions()).isZero();
        assertThat(sequencer.committedRows()).isZero();
    }

    @Test
    void theLowWaterMarkCommitMicrosAndCountsFollowEachCommit() {
        sequencer.markCommitted(1, at(100), 2_000L, 1, 10);
        assertThat(sequencer.committed()).isEqualTo(1);
        assertThat(sequencer.lowWater()).isEqualTo(at(100));
        assertThat(sequencer.lowWaterCommitMicros()).isEqualTo(2_000L);
        assertThat(sequencer.committedTransactions()).isEqualTo(1);
        assertThat(sequencer.committedRows()).isEqualTo(10);

        sequencer.markCommitted(2, at(300), 3_000L, 3, 7);
        assertThat(sequencer.committed()).isEqualTo(2);
        assertThat(sequencer.lowWater()).isEqualTo(at(300));
        assertThat(sequencer.lowWaterCommitMicros()).isEqualTo(3_000L);
        assertThat(sequencer.committedTransactions()).as("transactions add up").isEqualTo(4);
        assertThat(sequencer.committedRows()).as("rows add up").isEqualTo(17);
    }

    @Test
    void aUnitCommittedOutOfOrderIsRefusedAndChangesNothing() {
        assertThatThrownBy(() -> sequencer.markCommitted(2, at(200), 2_000L, 1, 1))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("unit 2 committed out of order after 0");
        assertThat(sequencer.committed()).isZero();
        assertThat(sequencer.lowWater()).isEqualTo(START);
        assertThat(sequencer.committedTransactions()).isZero();
        assertThat(sequencer.committedRows()).isZero();

        sequencer.markCommitted(1, at(100), 2_000L, 1, 1);
        assertThatThrownBy(() -> sequencer.markCommitted(1, at(150), 2_500L, 1, 1))
            .as("the same unit twice")
            .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> sequencer.markCommitted(3, at(300), 3_000L, 1, 1))
            .as("a unit skipping one")
            .isInstanceOf(IllegalStateException.class);
        assertThat(sequencer.committed()).isEqualTo(1);
        assertThat(sequencer.lowWater()).isEqualTo(at(100));
        assertThat(sequencer.committedTransactions()).isEqualTo(1);
    }

    @Test
    void anOutOfOrderCommitDoesNotRunTheOnCommitCallback() {
        List<Long> seen = new ArrayList<>();
        sequencer.onCommit(() -> seen.add(sequencer.committed()));
        assertThatThrownBy(() -> sequencer.markCommitted(5, at(500), 5_000L, 1, 1))
            .isInstanceOf(IllegalStateException.class);
        assertThat(seen).isEmpty();
    }

    @Test
    void awaitingAUnitAlreadyCommittedReturnsAtOnce() {
        sequencer.markCommitted(1, at(100), 2_000L, 1, 1);
        sequencer.markCommitted(2, at(200), 3_000L, 1, 1);
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            sequencer.awaitCommitted(0);
            sequencer.awaitCommitted(1);
            sequencer.awaitCommitted(2);
        });
    }

    @Test
    void awaitingReturnsAtOnceForACommittedUnitEvenAfterAFailure() {
        sequencer.markCommitted(1, at(100), 2_000L, 1, 1);
        failure.fail(new ApplierException(ExitCode.TARGET_UNREACHABLE, "target gone"));
        assertTimeoutPreemptively(HANG_GUARD, () -> sequencer.awaitCommitted(1));
    }

    @Test
    void aWaiterBlocksUntilAnotherThreadCommitsItsUnit() throws Exception {
        Waiter waiter = Waiter.start("waiter", () -> sequencer.awaitCommitted(1));
        waiter.awaitBlocked();
        assertThat(waiter.returned.getCount()).as("still waiting: unit 1 has not committed").isEqualTo(1);

        Thread committer = new Thread(() -> sequencer.markCommitted(1, at(100), 2_000L, 1, 1), "committer");
        committer.start();

        assertThat(waiter.outcome()).as("returned normally").isNull();
        assertThat(sequencer.committed()).isEqualTo(1);
        committer.join(HANG_GUARD.toMillis());
    }

    @Test
    void aWaiterForALaterUnitKeepsWaitingWhileEarlierUnitsCommit() throws Exception {
        Waiter waiter = Waiter.start("waiter", () -> sequencer.awaitCommitted(3));
        waiter.awaitBlocked();
        sequencer.markCommitted(1, at(100), 2_000L, 1, 1);
        sequencer.markCommitted(2, at(200), 3_000L, 1, 1);
        // units 1 and 2 committed, 3 not: the waiter cannot have returned (it may only spin and re-wait)
        assertThat(waiter.returned.getCount()).isEqualTo(1);
        sequencer.markCommitted(3, at(300), 4_000L, 1, 1);
        assertThat(waiter.outcome()).isNull();
    }

    @Test
    void aFailureRecordedInTheLatchWakesAWaiterWhichThrowsPipelineStopped() throws Exception {
        Waiter waiter = Waiter.start("waiter", () -> sequencer.awaitCommitted(1));
        waiter.awaitBlocked();

        ApplierException cause = new ApplierException(ExitCode.TARGET_UNREACHABLE, "target gone");
        assertThat(failure.fail(cause)).isTrue();

        assertThat(waiter.outcome())
            .isInstanceOf(FailureLatch.PipelineStopped.class)
            .hasCause(cause);
        assertThat(sequencer.committed()).as("nothing committed").isZero();
    }

    @Test
    void aWaiterWhoseUnitIsPreemptedWhileWaitingThrowsPreempted() throws Exception {
        WorkerState state = new WorkerState();
        state.unit = 2;
        Waiter waiter = Waiter.start("waiter", () -> sequencer.awaitCommitted(1, state));
        waiter.awaitBlocked();

        assertThat(state.preempt(2, 1)).as("unit 2 gives way to unit 1").isTrue();

        assertThat(waiter.outcome())
            .isInstanceOfSatisfying(WorkerState.Preempted.class, p -> assertThat(p.blockedUnit).isEqualTo(1));
    }

    @Test
    void aWaiterPreemptedBeforeItWaitsThrowsAtOnce() {
        WorkerState state = new WorkerState();
        state.unit = 2;
        assertThat(state.preempt(2, 1)).isTrue();
        assertTimeoutPreemptively(HANG_GUARD, () ->
            assertThatThrownBy(() -> sequencer.awaitCommitted(1, state)).isInstanceOf(WorkerState.Preempted.class));
    }

    @Test
    void aPreemptionOfAnotherUnitDoesNotDisturbTheWaiter() throws Exception {
        WorkerState state = new WorkerState();
        state.unit = 3;
        Waiter waiter = Waiter.start("waiter", () -> sequencer.awaitCommitted(1, state));
        waiter.awaitBlocked();
        assertThat(state.preempt(2, 1)).as("the worker no longer applies unit 2").isFalse();
        sequencer.markCommitted(1, at(100), 2_000L, 1, 1);
        assertThat(waiter.outcome()).isNull();
    }

    @Test
    void theOnCommitCallbackRunsAfterEachCommitOnTheCommittingThread() throws Exception {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        sequencer.onCommit(() -> seen.add(Thread.currentThread().getName() + ":" + sequencer.committed()
            + "@" + sequencer.lowWater().coordinates().offset()));

        sequencer.markCommitted(1, at(100), 2_000L, 1, 1);
        Thread other = new Thread(() -> sequencer.markCommitted(2, at(200), 3_000L, 1, 1), "other-committer");
        other.start();
        other.join(HANG_GUARD.toMillis());
        assertThat(other.isAlive()).isFalse();

        assertThat(seen).containsExactly(
            Thread.currentThread().getName() + ":1@100",
            "other-committer:2@200");
    }

    @Test
    void manyThreadsCommittingInOrderEachAfterItsPredecessorEndWithAllCommitted() throws Exception {
        int n = 64;
        // The callback runs outside the sequencer's lock: by the time it runs a later unit may have
        // committed too, and callbacks of neighbouring units may run in either order. What holds is
        // that each runs once, on its committer's thread, after that committer's unit committed.
        List<String> lateCallbacks = Collections.synchronizedList(new ArrayList<>());
        List<Long> callbackUnits = Collections.synchronizedList(new ArrayList<>());
        sequencer.onCommit(() -> {
            long unit = Long.parseLong(Thread.currentThread().getName().substring("unit-".length()));
            callbackUnits.add(unit);
            if (sequencer.committed() < unit) {
                lateCallbacks.add("unit " + unit + " saw committed " + sequencer.committed());
            }
        });
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        // started last unit first, so most of them really wait for their predecessor
        for (long unit = n; unit >= 1; unit--) {
            long u = unit;
            CompletableFuture<Void> f = new CompletableFuture<>();
            done.add(f);
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    sequencer.awaitCommitted(u - 1);
                    sequencer.markCommitted(u, at(u * 100), u, 1, u);
                    f.complete(null);
                } catch (Throwable e) {
                    f.completeExceptionally(e);
                }
            }, "unit-" + u);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        go.countDown();

        assertTimeoutPreemptively(HANG_GUARD, () -> CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])).get());

        assertThat(sequencer.committed()).isEqualTo(n);
        assertThat(callbackUnits).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, n).boxed().toList());
        assertThat(lateCallbacks).as("callbacks that ran before their unit committed").isEmpty();
        assertThat(sequencer.lowWater()).isEqualTo(at(n * 100L));
        assertThat(sequencer.committedTransactions()).isEqualTo(n);
        assertThat(sequencer.committedRows()).isEqualTo((long) n * (n + 1) / 2);
        for (Thread t : threads) {
            t.join(HANG_GUARD.toMillis());
        }
    }

    private static SourcePosition at(long offset) {
        return new SourcePosition(new BinlogCoordinates("mysql-bin.000001", offset), "", SourcePosition.ResumeBy.FILE);
    }

    @FunctionalInterface
    private interface Blocking {
        void run() throws Exception;
    }

    /** A thread running one blocking call, which says when it is about to call and what the call ended with. */
    private static final class Waiter {
        final Thread thread;
        final CountDownLatch calling = new CountDownLatch(1);
        final CountDownLatch returned = new CountDownLatch(1);
        final AtomicReference<Throwable> thrown = new AtomicReference<>();

        private Waiter(String name, Blocking call) {
            thread = new Thread(() -> {
                calling.countDown();
                try {
                    call.run();
                } catch (Throwable e) {
                    thrown.set(e);
                } finally {
                    returned.countDown();
                }
            }, name);
            thread.setDaemon(true);
        }

        static Waiter start(String name, Blocking call) {
            Waiter w = new Waiter(name, call);
            w.thread.start();
            return w;
        }

        /** Returns once the thread made the call and is parked inside it (not merely about to call). */
        void awaitBlocked() {
            assertTimeoutPreemptively(HANG_GUARD, () -> {
                calling.await();
                while (!parked(thread.getState())) {
                    assertThat(returned.getCount()).as("the call returned instead of blocking: " + thrown.get())
                        .isEqualTo(1);
                    Thread.yield();
                }
            });
        }

        private static boolean parked(Thread.State s) {
            return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
        }

        /** Waits for the call to end; returns what it threw, null when it returned normally. */
        Throwable outcome() throws InterruptedException {
            assertThat(returned.await(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS))
                .as("the waiter ended").isTrue();
            thread.join(HANG_GUARD.toMillis());
            return thrown.get();
        }
    }
}
