package io.binlogapplier.pipeline;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A stop request that wakes whoever waits for it: periodic threads (the source-end poller, the
 * conflict monitor) and the reconnect backoff wait on it instead of sleeping, so a stop ends their
 * wait at once. Once requested it stays requested. Thread-safe.
 */
final class StopSignal {
    private final CountDownLatch requested = new CountDownLatch(1);

    void request() {
        requested.countDown();
    }

    boolean requested() {
        return requested.getCount() == 0;
    }

    /**
     * Waits up to {@code millis} for a stop.
     *
     * @return true when a stop was requested (now or earlier)
     */
    boolean await(long millis) throws InterruptedException {
        return requested.await(millis, TimeUnit.MILLISECONDS);
    }
}
