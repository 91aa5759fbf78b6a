package io.binlogapplier.pipeline;

import io.binlogapplier.schedule.WorkerGovernor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@code apply.workers: auto}: reads the target's {@code Innodb_buffer_pool_reads} every
 * {@link #INTERVAL_MILLIS} on a connection of its own (thread {@code applier-<name>-governor}), feeds
 * it to a {@link WorkerGovernor} and publishes how many workers take new units ({@link #active()},
 * read by the scheduler thread). A reading that fails keeps the count as it is: losing the target is
 * {@link TargetWatch}'s to notice, and the count only ever chooses among correct schedules.
 */
final class GovernorWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GovernorWatch.class);
    static final long INTERVAL_MILLIS = 500;

    private Connection connection;
    private final WorkerGovernor governor;
    private final int max;
    private final StopSignal stop = new StopSignal();
    private final Thread thread;
    private volatile int active = 1;

    GovernorWatch(String name, int max) {
        this.max = max;
        this.governor = new WorkerGovernor(max);
        this.thread = new Thread(this::run, "applier-" + name + "-governor");
        thread.setDaemon(true);
    }

    /** @param connection owned from here on: closed when the watch ends */
    void start(Connection connection) {
        this.connection = connection;
        log.info("workers auto: 1 of {} takes new units while the target works from memory; more, {} times as many"
            + " every {} ms, while it reads at least {} pages a second from disk (Innodb_buffer_pool_reads), half as"
            + " many after {} s below {}", max, WorkerGovernor.GROWTH, INTERVAL_MILLIS, WorkerGovernor.UP_PAGES_PER_SECOND,
            WorkerGovernor.QUIET_NANOS / 1_000_000_000L, WorkerGovernor.DOWN_PAGES_PER_SECOND);
        thread.start();
    }

    /** Workers that take new units now (1 until the target is seen reading from disk). */
    int active() {
        return active;
    }

    private void run() {
        try {
            do {
                long reads;
                try (Statement s = connection.createStatement();
                     ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'")) {
                    if (!rs.next()) {
                        log.info("workers auto: the target does not report Innodb_buffer_pool_reads; staying at {}",
                            active);
                        return;
                    }
                    reads = rs.getLong(2);
                } catch (SQLException e) {
                    if (stop.requested()) {
                        return;
                    }
                    log.debug("workers auto: reading the target's page reads failed: {}", e.toString());
                    continue;
                }
                int before = active;
                int now = governor.sample(System.nanoTime(), reads);
                if (now != before) {
                    active = now;
                    log.info("workers auto: {} of {} take new units (the target read {} pages a second from disk)",
                        now, max, governor.lastRate());
                }
            } while (!stop.await(INTERVAL_MILLIS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        Exception e = WatchThreads.end(stop, thread, connection, 1_000);
        if (e != null) {
            log.debug("closing the governor connection: {}", e.toString());
        }
    }
}
