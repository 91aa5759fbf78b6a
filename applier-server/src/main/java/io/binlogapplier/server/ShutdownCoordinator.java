package io.binlogapplier.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Stop requests for one process (or one in-process test run) of a command. A stop may come at any
 * moment: before the command has anything to stop (configuration still loading), while it runs,
 * or after it finished. One requested before {@link #onStop} is kept and handed to the action when
 * it registers, so no stop is ever lost.
 *
 * <p>{@link #installShutdownHook} ties it to SIGTERM: the JVM runs shutdown hooks on SIGTERM and
 * would then exit with 143; the hook requests the stop, waits for the command to finish (committing
 * what is complete, restoring settings), and ends the process with the command's own exit code.
 * Thread-safe.
 */
final class ShutdownCoordinator {
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile int exitCode;
    private Runnable stopAction; // guarded by this
    private boolean stopRequested; // guarded by this

    /**
     * Registers what a stop does; runs it at once (on this thread) when a stop was already
     * requested. A later call replaces the action.
     */
    void onStop(Runnable action) {
        boolean now;
        synchronized (this) {
            stopAction = action;
            now = stopRequested;
        }
        if (now) {
            action.run();
        }
    }

    /** Requests the stop: runs the registered action once, or keeps the request for {@link #onStop}. */
    void requestStop() {
        Runnable action;
        synchronized (this) {
            if (stopRequested) {
                return;
            }
            stopRequested = true;
            action = stopAction;
        }
        if (action != null) {
            action.run();
        }
    }

    synchronized boolean stopRequested() {
        return stopRequested;
    }

    /** The command ended with {@code code}; a waiting shutdown hook ends the process with it. */
    void finished(int code) {
        exitCode = code;
        finished.countDown();
    }

    /** @return true when the command finished within {@code millis} */
    boolean awaitFinished(long millis) throws InterruptedException {
        return finished.await(millis, TimeUnit.MILLISECONDS);
    }

    int exitCode() {
        return exitCode;
    }

    /**
     * The code a stop ends the process with: the command's, once it finished within {@code millis}; else 40
     * (stop timeout), as the exit codes say, rather than the 143 the JVM ends with after a SIGTERM.
     */
    int exitCodeWithin(long millis) throws InterruptedException {
        return awaitFinished(millis) ? exitCode : io.binlogapplier.ExitCode.STOP_TIMEOUT.code();
    }

    /**
     * SIGTERM (or any JVM shutdown) requests the stop and waits up to {@code maxWaitMillis} for the
     * command to finish, then halts with its exit code, or with 40 (stop timeout) when it did not finish. After a normal end ({@link #finished} then
     * {@code System.exit}) the hook halts at once with the same code: a SIGTERM racing with that
     * exit cannot turn it into 143.
     */
    void installShutdownHook(long maxWaitMillis) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (finished.getCount() > 0) {
                requestStop(); // SIGTERM while the command runs; after a normal end there is nothing to stop
            }
            try {
                int code = exitCodeWithin(maxWaitMillis);
                if (finished.getCount() > 0) {
                    // the command's own deadline passed without a word (a statement the target holds back,
                    // e.g. under FLUSH TABLES WITH READ LOCK): say why the process ends
                    org.slf4j.LoggerFactory.getLogger(ShutdownCoordinator.class).error("the stop did not finish within"
                        + " {} ms of SIGTERM (a statement still waits on the target: a lock, FLUSH TABLES WITH READ LOCK,"
                        + " a full disk?): halting; nothing uncommitted is kept, the next start resumes from the position"
                        + " saved on the target [exit {}]", maxWaitMillis, code);
                }
                System.out.flush();
                System.err.flush();
                Runtime.getRuntime().halt(code);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "binlog-applier-shutdown"));
    }
}
