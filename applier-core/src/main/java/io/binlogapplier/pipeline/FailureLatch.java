package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The first fatal error of a pipeline wins; every later one is dropped. Registered callbacks run
 * once, on the failing thread, so blocked stages can be woken.
 */
final class FailureLatch {
    private final AtomicReference<ApplierException> failure = new AtomicReference<>();
    private final CopyOnWriteArrayList<Runnable> onFailure = new CopyOnWriteArrayList<>();

    /** @return true when this call set the failure */
    boolean fail(Throwable t) {
        ApplierException e = ApplierException.of(t);
        if (!failure.compareAndSet(null, e)) {
            return false;
        }
        for (Runnable r : onFailure) {
            try {
                r.run();
            } catch (RuntimeException ignored) {
                // waking others must not hide the failure itself
            }
        }
        return true;
    }

    ApplierException failure() {
        return failure.get();
    }

    boolean failed() {
        return failure.get() != null;
    }

    void whenFailed(Runnable r) {
        onFailure.add(r);
    }

    /** Throws the failure if there is one. */
    void check() {
        ApplierException e = failure.get();
        if (e != null) {
            throw new PipelineStopped(e);
        }
    }

    /** Unwinds a stage after another stage failed; never reported as a failure of its own. */
    static final class PipelineStopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PipelineStopped(ApplierException cause) {
            super("pipeline stopped", cause);
        }
    }
}
