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
    private final java.util.concurrent.CompletableFuture<Void> asFuture = new java.util.concurrent.CompletableFuture<>();

    void request() {
        requested.countDown();
        asFuture.complete(null);
    }

    /** Completes when a stop is requested: to wait for a stop or something else, whichever comes first. */
    java.util.concurrent.CompletableFuture<Void> future() {
        return asFuture;
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
