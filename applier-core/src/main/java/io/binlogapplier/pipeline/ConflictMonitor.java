package io.binlogapplier.pipeline;

import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import io.binlogapplier.schedule.ConflictResolver;
import io.binlogapplier.schedule.ContendedTables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Watches the target's lock waits while several workers apply units ({@code applier-<name>-conflicts}).
 * When an earlier unit waits for a lock a later unit holds, the later unit is preempted: told to
 * roll back and retry after its predecessors commit, and its statement killed if it is itself stuck
 * waiting. Without the PROCESS privilege the monitor cannot see lock waits; it then says so once
 * and the workers fall back to lock-wait timeouts. The tables such waits name are counted
 * ({@link ContendedTables}): one named again and again gets a table-level key.
 */
final class ConflictMonitor implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ConflictMonitor.class);
    private static final String MARIADB_WAITS = "SELECT r.trx_mysql_thread_id, b.trx_mysql_thread_id, l.lock_table"
        + " FROM information_schema.INNODB_LOCK_WAITS w"
        + " JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id"
        + " JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id"
        + " LEFT JOIN information_schema.INNODB_LOCKS l ON l.lock_id = w.requested_lock_id";
    private static final String MYSQL_WAITS = "SELECT r.PROCESSLIST_ID, b.PROCESSLIST_ID,"
        + " CONCAT('`', w.OBJECT_SCHEMA, '`.`', w.OBJECT_NAME, '`') FROM performance_schema.data_lock_waits w"
        + " JOIN performance_schema.threads r ON r.THREAD_ID = w.REQUESTING_THREAD_ID"
        + " JOIN performance_schema.threads b ON b.THREAD_ID = w.BLOCKING_THREAD_ID";
    /**
     * InnoDB refreshes what INNODB_TRX and INNODB_LOCK_WAITS show only when they were last read more than
     * 0.1 s before (trx0i_s.cc, can_cache_be_updated): read every 50 ms, as this monitor did, they kept
     * showing the moment of the first read for as long as statements ran, and a lock wait went unseen.
     */
    static final long POLL_MILLIS = 150;
    static final long STUCK_NANOS = 500_000_000L;
    /** A statement shorter than this has not waited for a lock worth looking for. */
    static final long WAITING_NANOS = 30_000_000L;

    private final Connection connection;
    private final WorkerState[] workers;
    private final CommitSequencer sequencer;
    private final Thread thread;
    private final String query;
    private final PipelineMetrics metrics;
    private final ContendedTables contended;
    private final StopSignal stop = new StopSignal();

    ConflictMonitor(String name, Connection connection, WorkerState[] workers, CommitSequencer sequencer,
                    PipelineMetrics metrics, ContendedTables contended) throws SQLException {
        this.metrics = metrics;
        this.contended = contended;
        this.connection = connection;
        this.workers = workers;
        this.sequencer = sequencer;
        this.query = connection.getMetaData().getDatabaseProductVersion().toLowerCase().contains("mariadb")
            ? MARIADB_WAITS : MYSQL_WAITS;
        this.thread = new Thread(this::run, "applier-" + name + "-conflicts");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        boolean readWaits = true;
        try {
            while (!stop.await(POLL_MILLIS)) {
                for (ContendedTables.Name t : contended.release(System.nanoTime())) {
                    log.info("{}: contended for {} min, released: its changes in different units run side by side"
                        + " again", t, ContendedTables.HOLD_NANOS / 60_000_000_000L);
                }
                if (!anyUnitInFlight() || !anyStatementRunningFor(WAITING_NANOS)) {
                    continue; // nobody can be waiting for a lock: spare the target the query
                }
                // One failed poll is not the end of watching (it used to be: a lock wait on the lock view's own
                // query, a query killed by an operator, stopped it for the run); a lost connection, a missing
                // privilege or a missing lock view are.
                if (readWaits) {
                    try {
                        resolve(waits());
                    } catch (SQLException e) {
                        if (ends(e)) {
                            return;
                        }
                        readWaits = !cannotRead(e);
                    }
                }
                try {
                    stuckStatements();
                } catch (SQLException e) {
                    if (ends(e)) {
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** True when {@code e} ends the watch: a stop, or the connection lost (the workers report that). */
    private boolean ends(SQLException e) {
        if (stop.requested()) {
            return true;
        }
        if (ErrorClassifier.classify(e, Side.TARGET).action() == Classification.Action.RECONNECT) {
            log.info("stopped watching the target's lock waits: the connection was lost ({})", Messages.withCode(e));
            return true;
        }
        return false;
    }

    /**
     * True (with a warning) when the lock views cannot be read at all: a privilege missing, or no such
     * view (MySQL 5.7 has no {@code performance_schema.data_lock_waits}); the check of stuck statements
     * goes on. Otherwise a one-off failure, logged at debug, and the next poll tries again.
     */
    private boolean cannotRead(SQLException e) {
        Classification c = ErrorClassifier.classify(e, Side.TARGET);
        if (c.exitCode() == io.binlogapplier.ExitCode.TARGET_PRIVILEGE) {
            log.warn("cannot watch the target's lock waits ({}): conflicts that keys cannot show are then resolved"
                + " only by innodb_lock_wait_timeout; GRANT " + (query.equals(MARIADB_WAITS) ? "PROCESS ON *.*"
                : "SELECT ON performance_schema.*") + " to the target user to detect them at once",
                Messages.withCode(e));
            return true;
        }
        if (io.binlogapplier.errors.VendorCode.ER_NO_SUCH_TABLE.is(e)) {
            log.warn("cannot watch the target's lock waits ({}): conflicts that keys cannot show are then resolved"
                + " only by innodb_lock_wait_timeout (or a statement stuck for long)", Messages.withCode(e));
            return true;
        }
        log.debug("reading the target's lock waits failed once ({}); trying again at the next poll",
            Messages.withCode(e));
        return false;
    }

    /**
     * The server's lock views do not show every wait (MariaDB 10.11 was seen listing none while
     * SHOW ENGINE INNODB STATUS showed an earlier unit waiting on a record a later unit's foreign-key
     * cascade had locked; read then every 50 ms, the views may simply have been stale, see
     * {@link #POLL_MILLIS}). So: when an earlier unit has been inside one statement for longer than
     * {@link #STUCK_NANOS} and its transaction waits for a lock, every later unit in flight gives way.
     */
    private void stuckStatements() throws SQLException {
        long now = System.nanoTime();
        java.util.Set<Long> lockWaiting = null;
        for (WorkerState stuck : workers) {
            long since = stuck.busySince;
            long unit = stuck.unit;
            if (since == 0 || unit == 0 || now - since < STUCK_NANOS) {
                continue;
            }
            if (lockWaiting == null) {
                lockWaiting = lockWaiting();
            }
            // A long statement that waits for no lock is working (on a target larger than its buffer pool,
            // reading page after page): making every later unit give way to it threw their work away, over
            // and over (600 retries in an 86 s I/O-bound catch-up, twice as slow as the native replica).
            if (!lockWaiting.contains(-1L) && !lockWaiting.contains(stuck.connectionId)) {
                continue;
            }
            for (WorkerState later : workers) {
                long laterUnit = later.unit;
                if (laterUnit > unit && later.preempt(laterUnit, unit)) {
                    metrics.conflict("long_statement");
                    log.info("unit {} has run one statement for {} ms while later unit {} is in flight: rolling"
                        + " the later unit back to retry after its predecessors", unit, (now - since) / 1_000_000,
                        laterUnit);
                    long laterSince = later.busySince;
                    if (laterSince != 0 && now - laterSince >= STUCK_NANOS) {
                        try (Statement s = connection.createStatement()) {
                            s.execute("KILL QUERY " + later.connectionId);
                        }
                    }
                    sequencer.wakeAll();
                }
            }
        }
    }

    /**
     * The connection ids whose InnoDB transaction waits for a lock ({@code INNODB_TRX.trx_state}), which
     * shows a wait even when the lock-wait view does not say who holds the lock; {@code {-1}} (any
     * statement may be waiting) when it cannot be read.
     */
    private java.util.Set<Long> lockWaiting() {
        java.util.Set<Long> ids = new java.util.HashSet<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT trx_mysql_thread_id"
            + " FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        } catch (SQLException e) {
            log.debug("cannot read INNODB_TRX ({}): a long statement counts as waiting", Messages.withCode(e));
            ids.add(-1L);
        }
        return ids;
    }

    /** True when some worker has been inside one statement for {@code nanos} or longer. */
    private boolean anyStatementRunningFor(long nanos) {
        long now = System.nanoTime();
        for (WorkerState w : workers) {
            long since = w.busySince;
            if (since != 0 && now - since >= nanos) {
                return true;
            }
        }
        return false;
    }

    private boolean anyUnitInFlight() {
        int busy = 0;
        for (WorkerState w : workers) {
            if (w.unit != 0) {
                busy++;
            }
        }
        return busy > 1;
    }

    private List<ConflictResolver.Wait> waits() throws SQLException {
        List<ConflictResolver.Wait> waits = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                waits.add(new ConflictResolver.Wait(rs.getLong(1), rs.getLong(2), rs.getString(3)));
            }
        }
        return waits;
    }

    private void resolve(List<ConflictResolver.Wait> waits) throws SQLException {
        if (waits.isEmpty()) {
            return;
        }
        Map<Long, Long> unitByConnection = new HashMap<>();
        Map<Long, Integer> workerByConnection = new HashMap<>();
        for (int i = 0; i < workers.length; i++) {
            unitByConnection.put(workers[i].connectionId, workers[i].unit);
            workerByConnection.put(workers[i].connectionId, i);
        }
        for (ConflictResolver.Victim v : ConflictResolver.victims(waits, unitByConnection, workerByConnection)) {
            WorkerState w = workers[v.worker()];
            if (!w.preempt(v.unit(), v.blockedUnit())) {
                continue;
            }
            metrics.conflict("lock_wait");
            log.info("unit {} holds a lock on {} that earlier unit {} waits for: rolling it back to retry after its"
                + " predecessors", v.unit(), v.table(), v.blockedUnit());
            contended.conflict(v.table(), System.nanoTime()).ifPresent(t -> {
                metrics.tableContended();
                log.info("{}: {} lock conflicts between units with no key in common within {} s (locks no key"
                    + " shows: index entries beside the rows changed, as when a unique value is taken again before"
                    + " purge removed its old entry, or a foreign key's check or cascade): its changes in different"
                    + " units now wait for each other for {} min", t, ContendedTables.CONFLICTS,
                    ContendedTables.WINDOW_NANOS / 1_000_000_000L, ContendedTables.HOLD_NANOS / 60_000_000_000L);
            });
            if (v.alsoWaiting()) {
                try (Statement s = connection.createStatement()) {
                    s.execute("KILL QUERY " + w.connectionId);
                }
            }
            sequencer.wakeAll();
        }
    }

    /** Stops watching: requests the stop, waits for the thread (it polls at most one more query), closes. */
    @Override
    public void close() {
        WatchThreads.end(stop, thread, connection, 2_000); // an error closing it changes nothing
    }
}
