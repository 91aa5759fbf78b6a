package io.binlogapplier.pipeline;

import io.binlogapplier.config.ApplierConfig;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * An applier that runs until stopped, on a thread of its own, as the daemon does: the fault tests
 * hurt its servers meanwhile and watch its status. Its failure, if it ends with one, is kept.
 */
// close() waits for the applier thread, so it may be interrupted (javac's "try" lint)
@SuppressWarnings("try")
final class BackgroundApplier implements AutoCloseable {
    final ApplierStatus status = new ApplierStatus(Clock.systemUTC());
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Applier applier;
    private final Thread thread;

    BackgroundApplier(ApplierConfig config, PipelineMetrics metrics, String threadName) {
        this.applier = new Applier(config, metrics, 30_000, status);
        this.thread = new Thread(() -> {
            try {
                applier.run(new Applier.Until.Forever());
            } catch (Throwable t) {
                failure.set(t);
            }
        }, threadName);
        thread.start();
    }

    boolean running() {
        return thread.isAlive();
    }

    /** Requests a stop and waits (30 s at most) for the run to end. */
    @Override
    public void close() throws InterruptedException {
        applier.requestStop();
        thread.join(30_000);
    }

    /**
     * Waits for {@code condition}; fails at once when the applier failed, and after {@code seconds}
     * with the applier's threads' stacks.
     */
    static void await(String what, int seconds, BooleanSupplier condition, AtomicReference<Throwable> failure)
        throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (failure.get() != null) {
                throw new AssertionError("the applier failed while waiting for " + what, failure.get());
            }
            if (System.nanoTime() > deadline) {
                StringBuilder dump = new StringBuilder();
                Thread.getAllStackTraces().forEach((t, stack) -> {
                    if (t.getName().startsWith("applier-")) {
                        dump.append('\n').append(t.getName()).append(' ').append(t.getState());
                        for (int i = 0; i < Math.min(40, stack.length); i++) {
                            dump.append("\n    at ").append(stack[i]);
                        }
                    }
                });
                throw new AssertionError("not " + what + " within " + seconds + " s; threads:" + dump);
            }
            Thread.sleep(20);
        }
    }
}
