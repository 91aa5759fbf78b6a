package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Notices a lost target by time, on thread {@code applier-<name>-target-watch}: pings it every
 * {@link #INTERVAL_MILLIS} on a connection of its own and fails the pipeline ({@link ExitCode#TARGET_UNREACHABLE},
 * which the {@link Applier} reconnects) when a ping is not answered within {@link #TIMEOUT_SECONDS}.
 * Workers blocked in a statement to a target behind a silent partition would otherwise wait for the
 * socket timeout ({@code target.statement_timeout}), which must be longer than the longest DDL; a
 * ping is answered at once by a live server however long its statements run, so a long statement is
 * never taken for a lost target. The failure cuts every worker's connection: nothing they hold commits.
 */
final class TargetWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TargetWatch.class);
    static final long INTERVAL_MILLIS = 1_000;
    static final int TIMEOUT_SECONDS = 5;

    private final Connection connection;
    private final FailureLatch failure;
    private final String address;
    private final StopSignal stop = new StopSignal();
    private final Thread thread;
    private final java.util.function.Function<Connection, io.binlogapplier.ApplierException> everyFewPings;
    /** Pings between two runs of {@link #everyFewPings}. */
    static final int PINGS_BETWEEN_CHECKS = 5;

    /**
     * @param connection owned from here on: closed (or cut) when the watch ends
     * @param everyFewPings run every {@link #PINGS_BETWEEN_CHECKS} pings on the watch's connection; a failure it
     *     returns fails the pipeline (the target's native replication started behind the applier's back)
     */
    TargetWatch(String name, String address, Connection connection, FailureLatch failure,
                java.util.function.Function<Connection, io.binlogapplier.ApplierException> everyFewPings) {
        this.everyFewPings = everyFewPings;
        this.connection = connection;
        this.failure = failure;
        this.address = address;
        this.thread = new Thread(this::run, "applier-" + name + "-target-watch");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        long pings = 0;
        try {
            while (!stop.await(INTERVAL_MILLIS) && !failure.failed()) {
                long started = System.nanoTime();
                boolean alive;
                try {
                    alive = connection.isValid(TIMEOUT_SECONDS);
                } catch (SQLException e) {
                    alive = false;
                }
                if (!alive && !stop.requested()) {
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    failure.fail(new ApplierException(ExitCode.TARGET_UNREACHABLE, "the target " + address
                        + " did not answer a ping (" + millis + " ms, at most " + TIMEOUT_SECONDS
                        + " s): the network to it is down, or it stopped; reconnecting"));
                    return;
                }
                if (++pings % PINGS_BETWEEN_CHECKS == 0) {
                    ApplierException e = everyFewPings.apply(connection);
                    if (e != null && !stop.requested()) {
                        failure.fail(e);
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        // a ping stuck on a dead network gets its connection cut
        Exception e = WatchThreads.end(stop, thread, connection, 1_000);
        if (e != null) {
            log.debug("closing the target watch connection: {}", e.toString());
        }
    }
}
