package io.binlogapplier.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGTERM → graceful stop. The JVM runs shutdown hooks on SIGTERM and would then exit with 143;
 * our hook asks the running command to stop, waits for it to finish (committing what is complete,
 * restoring settings), and ends the process with the command's own exit code.
 */
final class ShutdownCoordinator {
    private static final CountDownLatch finished = new CountDownLatch(1);
    private static volatile int exitCode = 0;
    private static volatile Runnable stopAction;
    private static volatile boolean hooked;

    private ShutdownCoordinator() {
    }

    /** Registers what SIGTERM should do; {@code maxWaitMillis} bounds the wait for the command. */
    static synchronized void onTerm(Runnable stop, long maxWaitMillis) {
        stopAction = stop;
        if (hooked) {
            return;
        }
        hooked = true;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (finished.getCount() == 0) {
                return; // a normal exit: System.exit already carries the code
            }
            Runnable s = stopAction;
            if (s != null) {
                s.run();
            }
            try {
                if (finished.await(maxWaitMillis, TimeUnit.MILLISECONDS)) {
                    System.out.flush();
                    Runtime.getRuntime().halt(exitCode);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "binlog-applier-shutdown"));
    }

    /** Ends the process: directly, or through the shutdown hook when a SIGTERM is being handled. */
    static void exit(int code) {
        exitCode = code;
        finished.countDown();
        System.exit(code);
    }
}
