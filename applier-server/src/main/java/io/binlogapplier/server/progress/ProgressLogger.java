package io.binlogapplier.server.progress;

import io.binlogapplier.pipeline.ApplierStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Logs {@link Progress#line} every {@code log.progress_interval} while the applier is behind (state
 * applying or reconnecting), on thread {@code applier-<name>-progress}; silent while caught up,
 * starting or stopping. Zero interval: no thread at all.
 */
public final class ProgressLogger implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ProgressLogger.class);

    private final ApplierStatus status;
    private final long intervalMillis;
    private final Thread thread;
    private final Object lock = new Object();
    private boolean closed;

    private ProgressLogger(String name, ApplierStatus status, Duration interval) {
        this.status = status;
        this.intervalMillis = interval.toMillis();
        this.thread = new Thread(this::run, "applier-" + name + "-progress");
        thread.setDaemon(true);
    }

    /** Starts logging; a zero {@code interval} starts nothing. */
    public static ProgressLogger start(String name, ApplierStatus status, Duration interval) {
        ProgressLogger p = new ProgressLogger(name, status, interval);
        if (!interval.isZero()) {
            p.thread.start();
        }
        return p;
    }

    private Progress.Sample sample() {
        ApplierStatus.State state = status.state();
        boolean behind = state == ApplierStatus.State.APPLYING || state == ApplierStatus.State.RECONNECTING;
        return new Progress.Sample(System.nanoTime(), status.appliedTransactions(), status.bytesBehind(),
            status.lagSeconds(), !behind);
    }

    private void run() {
        Progress.Sample before = sample();
        try {
            while (true) {
                synchronized (lock) {
                    long deadline = System.currentTimeMillis() + intervalMillis;
                    for (long left = intervalMillis; !closed && left > 0; left = deadline - System.currentTimeMillis()) {
                        lock.wait(left);
                    }
                    if (closed) {
                        return;
                    }
                }
                Progress.Sample now = sample();
                String line = Progress.line(before, now);
                if (line != null) {
                    log.info(line);
                }
                before = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("progress line failed: {}", e.toString());
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }
}
