package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.SourceConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the source where its binlog ends (SHOW MASTER STATUS, on a connection of its own) every
 * {@code intervalMillis}, on thread {@code applier-<name>-source-end}, and reports it as
 * {@link PipelineMetrics#sourceEnd}. Heartbeats say the same while the source is idle, but MariaDB
 * sends them only then: while it is busy, this is how the lag learns that the reader is behind.
 * A failed query is counted and retried on the next tick with a new connection; it never stops
 * the applier (the stream's own connection decides that).
 */
final class SourceEndPoller implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SourceEndPoller.class);

    private final SourceConfig source;
    private final PipelineMetrics metrics;
    private final long intervalMillis;
    private final Thread thread;
    private final StopSignal stop = new StopSignal();

    SourceEndPoller(String name, SourceConfig source, PipelineMetrics metrics, long intervalMillis) {
        this.source = source;
        this.metrics = metrics;
        this.intervalMillis = intervalMillis;
        this.thread = new Thread(this::run, "applier-" + name + "-source-end");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        SourceInspector inspector = null;
        boolean warned = false;
        try {
            while (!stop.await(intervalMillis)) {
                try {
                    if (inspector == null) {
                        inspector = SourceInspector.connect(source);
                    }
                    metrics.sourceEnd(inspector.currentPosition());
                    warned = false;
                } catch (ApplierException e) {
                    if (stop.requested()) {
                        return;
                    }
                    metrics.error("source_end_poll");
                    if (!warned) {
                        log.warn("cannot read the source's binlog end ({}); the lag is judged from heartbeats until"
                            + " this works again", e.getMessage());
                        warned = true;
                    }
                    if (inspector != null) {
                        inspector.close();
                        inspector = null;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (inspector != null) {
                inspector.close();
            }
        }
    }

    @Override
    public void close() {
        stop.request();
        thread.interrupt(); // a query to the source in progress
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
