package io.binlogapplier.status;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.position.SourcePosition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A running applier's presence on the target, on a connection of its own (thread
 * {@code applier-<name>-liveness}): holds the stream's {@link StreamLock} for the life of the
 * process, refreshes {@code applier_run.alive_at} every {@link #BEAT_MILLIS} and clears the last
 * error once the applied position has passed the transaction that failed. One autocommitted
 * single-row UPDATE per beat on another table than the position row: nothing on the apply path
 * waits for it and no unit's transaction includes it.
 *
 * <p>After the target was lost it reconnects at its next beat and takes the lock again; a lock its
 * own lost session still holds (a partition the server has not noticed) is freed by killing that
 * session. A lock another session took meanwhile means a second process runs this stream: it says
 * so through {@code lockLost} and stops beating.
 */
public final class Liveness implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Liveness.class);
    public static final long BEAT_MILLIS = 2_000;
    /** A holder of the lock whose liveness row is older than this is a session left behind. */
    static final double STALE_SECONDS = 15;
    /** How long a starting applier waits for a command (skip, set-position …) to release the lock. */
    static final int START_WAIT_SECONDS = 10;

    /** Target connections: the pool's, discarded (never reused) because the session is changed. */
    public interface Connections {
        Connection get() throws SQLException;

        /** Cuts {@code c} for good and gives its place back; safe from any thread. */
        void discard(Connection c);
    }

    private final RunTable table;
    private final StreamLock lock;
    private final Connections connections;
    private final Supplier<SourcePosition> applied;
    private final Consumer<ApplierException> lockLost;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Thread thread;
    private volatile Connection connection; // the liveness thread's after start()
    private long connectionId;
    private volatile LastError lastError;

    public Liveness(String name, RunTable table, StreamLock lock, Connections connections,
                    Supplier<SourcePosition> applied, Consumer<ApplierException> lockLost) {
        this.table = table;
        this.lock = lock;
        this.connections = connections;
        this.applied = applied;
        this.lockLost = lockLost;
        this.thread = new Thread(this::beat, "applier-" + name + "-liveness");
        this.thread.setDaemon(true);
    }

    /**
     * Takes the stream's lock (waiting a few seconds for a command to finish), registers this
     * process and starts beating.
     *
     * @throws ApplierException {@link ExitCode#APPLIER_RUNNING} when another process holds the lock
     */
    public void start() throws SQLException {
        Connection c = connections.get();
        try {
            table.ensureTable(c);
            quietlyKeepOutOfTheBinlog(c);
            connectionId = StreamLock.connectionId(c);
            if (!lock.acquire(c, START_WAIT_SECONDS) && !(freeStaleHolder(c) && lock.acquire(c, START_WAIT_SECONDS))) {
                Long holder = lock.holder(c);
                Optional<RunTable.Process> p = table.process(c, lock.name());
                throw new ApplierException(ExitCode.APPLIER_RUNNING, "target connection " + holder + " holds the lock"
                    + " of applier '" + table.stream() + "'" + p.filter(x -> holder != null
                    && x.connectionId() == holder).map(x -> " (pid " + x.pid() + " on " + x.host() + ")").orElse("")
                    + ": another binlog-applier with this name runs, or a command such as skip; stop it, or wait"
                    + " for the command, then start again");
            }
            table.register(c, host(), ProcessHandle.current().pid(), connectionId);
            lastError = table.lastError(c).orElse(null);
        } catch (SQLException | RuntimeException e) {
            connections.discard(c);
            throw e;
        }
        connection = c;
        thread.start();
    }

    /** The lock is held by the session a lost earlier run of this stream left behind: kill it. */
    private boolean freeStaleHolder(Connection c) throws SQLException {
        Long holder = lock.holder(c);
        Optional<RunTable.Process> p = table.process(c, lock.name());
        if (holder == null || p.isEmpty() || p.get().connectionId() != holder
            || p.get().aliveAgoSeconds() == null || p.get().aliveAgoSeconds() < STALE_SECONDS) {
            return false;
        }
        log.warn("killing target connection {}: it holds the lock of applier '{}' but its process has not been"
            + " alive for {} s", holder, table.stream(), p.get().aliveAgoSeconds());
        kill(c, holder);
        return true;
    }

    private static void kill(Connection c, long id) {
        try (Statement s = c.createStatement()) {
            s.execute("KILL CONNECTION " + id);
        } catch (SQLException e) {
            log.debug("kill {}: {}", id, e.toString()); // gone already
        }
    }

    /** The liveness row is no data: keep it out of the target's binlog where the user may (best effort). */
    private static void quietlyKeepOutOfTheBinlog(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION sql_log_bin = 0");
        } catch (SQLException e) {
            log.debug("sql_log_bin: {}", e.toString());
        }
    }

    private void beat() {
        Connection c = connection;
        boolean lost = false;
        try {
            while (!stop.await(BEAT_MILLIS, TimeUnit.MILLISECONDS) && !lost) {
                try {
                    if (c == null) {
                        c = reconnect();
                        if (c == null) {
                            lost = true;
                            continue;
                        }
                        connection = c;
                    }
                    table.alive(c, connectionId);
                    clearPassedError(c);
                } catch (SQLException e) {
                    log.debug("liveness: {}", e.toString());
                    if (c != null) {
                        connections.discard(c);
                    }
                    c = null;
                    connection = null;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Clears the last error once the applied position is past its transaction. */
    private void clearPassedError(Connection c) throws SQLException {
        LastError e = lastError;
        if (e != null && e.passedBy(applied.get())) {
            table.clearError(c, e);
            lastError = null;
            log.info("the transaction of the last error ({}) has been applied: error cleared", e.transaction());
        }
    }

    /** A fresh connection holding the lock again; null when another process holds it. */
    private Connection reconnect() throws SQLException {
        Connection c = connections.get();
        try {
            quietlyKeepOutOfTheBinlog(c);
            long previous = connectionId;
            long id = StreamLock.connectionId(c);
            if (!lock.acquire(c, 0)) {
                Long holder = lock.holder(c);
                if (holder != null && holder == previous) {
                    kill(c, previous); // our own session from before the outage
                }
                if (!lock.acquire(c, 5)) {
                    Long other = lock.holder(c);
                    connections.discard(c);
                    lockLost.accept(new ApplierException(ExitCode.APPLIER_RUNNING, "while the target was away,"
                        + " target connection " + other + " took the lock of applier '" + table.stream() + "': another"
                        + " binlog-applier with this name runs; stopping this one"));
                    return null;
                }
            }
            connectionId = id;
            return c;
        } catch (SQLException | RuntimeException e) {
            connections.discard(c);
            throw e;
        }
    }

    /** Stops beating, marks the process stopped, releases the lock. */
    @Override
    public void close() {
        stop.countDown();
        try {
            thread.join(2_000);
            if (thread.isAlive()) {
                // Inside a statement to a target that does not answer: cut it, a stop must not wait.
                Connection c = connection;
                if (c != null) {
                    connections.discard(c);
                }
                thread.join(5_000);
                return; // the server frees the lock of a lost session itself
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Connection c = connection;
        if (c == null) {
            return;
        }
        try {
            clearPassedError(c);
            table.stopped(c);
            lock.release(c);
        } catch (SQLException e) {
            log.debug("liveness close: {}", e.toString());
        } finally {
            connections.discard(c);
        }
    }

    private static String host() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            String h = System.getenv("HOSTNAME");
            return h == null ? "unknown" : h;
        }
    }
}
