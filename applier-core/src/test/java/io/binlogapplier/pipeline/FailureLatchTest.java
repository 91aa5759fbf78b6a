package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The first failure of a pipeline wins, wakes whoever registered, and unwinds the other stages. */
class FailureLatchTest {
    private final FailureLatch latch = new FailureLatch();

    @Test
    void aFreshLatchHasNoFailureAndCheckPasses() {
        assertThat(latch.failed()).isFalse();
        assertThat(latch.failure()).isNull();
        assertThatCode(latch::check).doesNotThrowAnyException();
    }

    @Test
    void theFirstFailureWinsAndALaterOneIsDropped() {
        ApplierException first = new ApplierException(ExitCode.TARGET_UNREACHABLE, "target gone");
        ApplierException second = new ApplierException(ExitCode.SOURCE_UNREACHABLE, "source gone");

        assertThat(latch.fail(first)).isTrue();
        assertThat(latch.fail(second)).isFalse();

        assertThat(latch.failed()).isTrue();
        assertThat(latch.failure()).isSameAs(first);
    }

    @Test
    void onlyOneOfManyThreadsFailingAtOnceWins() throws Exception {
        int threads = 8;
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger winners = new AtomicInteger();
        AtomicInteger callbackRuns = new AtomicInteger();
        latch.whenFailed(callbackRuns::incrementAndGet);
        List<Thread> started = new ArrayList<>();
        List<ApplierException> tried = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < threads; i++) {
            ApplierException e = new ApplierException(ExitCode.INTERNAL, "failure " + i);
            Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException ie) {
                    return;
                }
                tried.add(e);
                if (latch.fail(e)) {
                    winners.incrementAndGet();
                }
            }, "failer-" + i);
            t.setDaemon(true);
            started.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : started) {
            t.join(5_000);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(tried).hasSize(threads);
        assertThat(winners.get()).isEqualTo(1);
        assertThat(callbackRuns.get()).isEqualTo(1);
        assertThat(tried).contains(latch.failure());
    }

    @Test
    void callbacksRunOnceEachOnTheFailingThread() throws Exception {
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        latch.whenFailed(() -> ran.add("a on " + Thread.currentThread().getName()));
        latch.whenFailed(() -> ran.add("b on " + Thread.currentThread().getName()));

        Thread failing = new Thread(() -> latch.fail(new IllegalStateException("boom")), "failing-stage");
        failing.start();
        failing.join(5_000);
        assertThat(failing.isAlive()).isFalse();

        latch.fail(new IllegalStateException("later"));

        assertThat(ran).containsExactly("a on failing-stage", "b on failing-stage");
    }

    @Test
    void aCallbackThatThrowsDoesNotHideTheFailureNorSkipTheOtherCallbacks() {
        AtomicInteger later = new AtomicInteger();
        latch.whenFailed(() -> {
            throw new IllegalStateException("waking failed");
        });
        latch.whenFailed(later::incrementAndGet);
        ApplierException cause = new ApplierException(ExitCode.TARGET_DATA_CONFLICT, "duplicate key");

        assertThat(latch.fail(cause)).isTrue();

        assertThat(latch.failure()).isSameAs(cause);
        assertThat(later.get()).isEqualTo(1);
    }

    @Test
    void checkThrowsPipelineStoppedCarryingTheFailure() {
        ApplierException cause = new ApplierException(ExitCode.SOURCE_UNREACHABLE, "source gone");
        latch.fail(cause);

        assertThatThrownBy(latch::check)
            .isInstanceOf(FailureLatch.PipelineStopped.class)
            .hasMessage("pipeline stopped")
            .cause().isSameAs(cause);
    }

    @Test
    void anErrorSuchAsOutOfMemoryIsWrappedAsAnInternalApplierException() {
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");

        assertThat(latch.fail(oom)).isTrue();

        assertThat(latch.failure().exitCode()).isEqualTo(ExitCode.INTERNAL);
        assertThat(latch.failure()).hasCause(oom).hasMessageContaining("Java heap space");
        assertThatThrownBy(latch::check).isInstanceOf(FailureLatch.PipelineStopped.class).hasRootCause(oom);
    }

    @Test
    void aPlainRuntimeExceptionIsWrappedAsInternalWhileAnApplierExceptionKeepsItsExitCode() {
        FailureLatch other = new FailureLatch();
        IllegalArgumentException bug = new IllegalArgumentException("a bug");
        latch.fail(bug);
        other.fail(new ApplierException(ExitCode.TARGET_PRIVILEGE, "no INSERT"));

        assertThat(latch.failure().exitCode()).isEqualTo(ExitCode.INTERNAL);
        assertThat(latch.failure()).hasCause(bug);
        assertThat(other.failure().exitCode()).isEqualTo(ExitCode.TARGET_PRIVILEGE);
    }
}
