package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.SourceConfig;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.BinlogFileSize;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

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
        String listedAt = null; // the end's file when SHOW BINARY LOGS was last read
        try {
            while (!stop.await(intervalMillis)) {
                try {
                    if (inspector == null) {
                        inspector = SourceInspector.connect(source);
                    }
                    BinlogCoordinates end = inspector.currentPosition();
                    metrics.sourceEnd(end);
                    if (!end.file().equals(listedAt)) {
                        // Sizes of closed files never change: list them again only for a new file.
                        metrics.sourceLogs(logs(inspector));
                        listedAt = end.file();
                    }
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

    /** SHOW BINARY LOGS; an empty list when the user may not run it (bytes behind then stay unknown across files). */
    private static List<BinlogFileSize> logs(SourceInspector inspector) {
        try {
            List<BinlogFileSize> out = new ArrayList<>();
            for (String[] r : inspector.rows("SHOW BINARY LOGS")) {
                out.add(new BinlogFileSize(r[0], r.length > 1 && r[1] != null ? Long.parseLong(r[1]) : 0));
            }
            return out;
        } catch (SQLException | NumberFormatException e) {
            return List.of();
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
