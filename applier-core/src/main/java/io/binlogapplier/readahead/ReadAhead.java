package io.binlogapplier.readahead;

import io.binlogapplier.apply.RowSql;
import io.binlogapplier.apply.StatementCache;
import io.binlogapplier.apply.TableSchema;
import io.binlogapplier.apply.TableSchemaCache;
import io.binlogapplier.apply.ValueBinder;
import io.binlogapplier.config.ReadAheadConfig;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Reads into the target's buffer pool the index entries of row changes queued for the workers,
 * before a worker changes them: on a target whose data is larger than its buffer pool, a worker
 * applying serially waits for one page read after another, and these reads run beside it.
 *
 * <p>The scheduler {@linkplain #offer offers} every transaction it has scheduled, in stream order,
 * without ever waiting: when the queue is full the transaction is dropped (not read ahead, applied
 * as always). {@code apply.read_ahead.connections} threads, {@code applier-<name>-read-ahead-N},
 * each owning one target connection, take transactions in order, keep within the
 * {@linkplain ReadWindow window} ahead of the oldest transaction a worker is applying, and look the
 * entries up ({@link RowSql#probe}) in statements of at most {@value #VALUES_PER_STATEMENT} values.
 *
 * <p>It only reads: its sessions are READ ONLY, READ UNCOMMITTED (no locks, no read view) with a
 * statement time limit, undone before a connection goes back to the pool (one that fails is cut
 * instead). A failed read is counted and forgotten; nothing here can fail or slow the pipeline, which
 * applies every change exactly as it would without it. While {@code auto} finds no reason to read
 * ahead (or its {@link Trial} finds the workers no faster with it), {@link #offer} passes
 * transactions over without queueing them, so the readers stay asleep; they look again at each poll
 * timeout. {@link #close} stops the threads.
 */
public final class ReadAhead implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ReadAhead.class);
    static final int VALUES_PER_STATEMENT = 32;
    private static final int QUEUE_TRANSACTIONS = 4096;
    private static final long WAIT_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    private static final int STATEMENTS_PER_CONNECTION = 128;
    /** A read that takes longer than this is stopped by the server: the page will be read by the worker. */
    private static final double STATEMENT_SECONDS = 1.0;

    /** Where connections come from. */
    public interface Connections {
        Connection get() throws SQLException;

        /** Cuts {@code c} at once (from any thread), so a read in progress ends. */
        void discard(Connection c);
    }

    /**
     * What happened to row changes offered: read, late (a worker was there first), skipped (auto, and
     * the target does not read from disk, more than two workers are busy, or a {@link Trial} found
     * the workers no faster with read-ahead), dropped (the queue was full), failed.
     */
    public interface Listener {
        void rows(String outcome, long rows, long statements);
    }

    /**
     * @param schemas table metadata, only as the scheduler has loaded it (read-ahead never loads any)
     * @param frontier the sequence number of the oldest transaction a worker is applying
     * @param busyWorkers how many workers are applying a unit now
     * @param maxQueuedBytes the most transaction bytes waiting to be read ahead
     */
    public record Sources(Connections connections, TableSchemaCache schemas, LongSupplier frontier,
                          java.util.function.IntSupplier busyWorkers, long maxQueuedBytes) {
    }

    /**
     * Under {@code auto}, the most workers busy at once for read-ahead to run: more workers keep as
     * many page reads in flight themselves, and read-ahead then only adds reads of pages evicted
     * before use (measured: 1 worker 18% faster with it, 16 workers 22% slower; docs/benchmark.md).
     */
    static final int AUTO_MAX_BUSY_WORKERS = 2;

    private final String name;
    private final ReadAheadConfig config;
    private final Sources sources;
    private final Listener listener;
    private final ArrayBlockingQueue<Transaction> queue = new ArrayBlockingQueue<>(QUEUE_TRANSACTIONS);
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicReferenceArray<Connection> open;
    private final Thread[] threads;
    private volatile ReadWindow window;
    private final DiskDemand demand = new DiskDemand();
    /** Under {@code auto}: whether reading ahead makes the workers faster (guarded by {@code demand}). */
    private final Trial trial = new Trial();
    private volatile boolean stopped;
    /** {@code auto} found no reason to read ahead at the readers' last look: offers are passed over. */
    private volatile boolean paused;
    private final java.util.concurrent.ConcurrentHashMap<String, java.util.concurrent.atomic.LongAdder> totals =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.LongAdder statementsRun = new java.util.concurrent.atomic.LongAdder();

    public ReadAhead(String name, ReadAheadConfig config, Sources sources, Listener listener) {
        this.name = name;
        this.config = config;
        this.sources = sources;
        this.listener = (outcome, rows, statements) -> {
            totals.computeIfAbsent(outcome, x -> new java.util.concurrent.atomic.LongAdder()).add(rows);
            statementsRun.add(statements);
            listener.rows(outcome, rows, statements);
        };
        this.open = new AtomicReferenceArray<>(config.connections());
        this.threads = new Thread[config.connections()];
        this.window = new ReadWindow(config.rows());
        this.paused = config.enabled() == ReadAheadConfig.Enabled.AUTO; // until a sample shows disk reads
    }

    /** Starts the readers; the window is held to an eighth of the buffer pool's pages. */
    public void start() {
        holdToBufferPool();
        for (int i = 0; i < threads.length; i++) {
            int n = i;
            threads[i] = new Thread(() -> run(n), "applier-" + name + "-read-ahead-" + i);
            threads[i].setDaemon(true);
            threads[i].start();
        }
    }

    /**
     * Pages read further ahead than a fraction of the buffer pool would push out pages read for
     * changes still to come before those are made.
     */
    private void holdToBufferPool() {
        try (Connection c = sources.connections().get(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@innodb_buffer_pool_size DIV @@innodb_page_size")) {
            if (rs.next()) {
                long pages = rs.getLong(1);
                int rows = (int) Math.max(1, Math.min(config.rows(), pages / 8));
                window = new ReadWindow(rows);
                log.info("read-ahead ({}): {} connections, at most {} row changes ahead (apply.read_ahead.rows {}, an"
                    + " eighth of the target's {} buffer pool pages)", config.enabled() == ReadAheadConfig.Enabled.AUTO
                    ? "auto: while the target reads pages from disk and a trial finds the workers faster with it" : "on",
                    threads.length, rows, config.rows(), pages);
            }
        } catch (SQLException e) {
            log.info("read-ahead: {} connections, at most {} row changes ahead (the buffer pool size is unknown: {})",
                threads.length, config.rows(), e.getMessage());
        }
    }

    /** Queues {@code t} to be read ahead, unless read-ahead is paused or the queue is full; never blocks. */
    public void offer(Transaction t) {
        int rows = t.rowChanges();
        if (stopped || rows == 0) {
            return;
        }
        if (paused) {
            listener.rows("skipped", rows, 0);
            return;
        }
        if (queuedBytes.get() + t.sizeBytes() > sources.maxQueuedBytes() || !queue.offer(t)) {
            listener.rows("dropped", rows, 0);
            return;
        }
        queuedBytes.addAndGet(t.sizeBytes());
    }

    /**
     * Stops the readers. A reader finishes the statement it is in (the server ends it within
     * {@value #STATEMENT_SECONDS} s); one still in it after that, as on a target gone silent, has its
     * connection cut. Returns once every reader ended.
     */
    @Override
    public void close() {
        stopped = true;
        for (Thread t : threads) {
            if (t != null) {
                t.interrupt();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos((long) (STATEMENT_SECONDS * 1000) + 500);
        for (int i = 0; i < threads.length; i++) {
            Thread t = threads[i];
            if (t == null) {
                continue;
            }
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    Connection c = open.get(i);
                    if (c != null) {
                        sources.connections().discard(c);
                    }
                    t.join(1_000); // a daemon: one still stuck past this is left to end on its own
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        queue.clear();
        queuedBytes.set(0);
        log.info("read-ahead: {} row changes read in {} statements, {} late (a worker was there first), {} skipped"
            + " (auto: the target read next to nothing from disk, more than " + AUTO_MAX_BUSY_WORKERS
            + " workers were busy, or read-ahead did not make them faster), {} dropped (queue full), {} failed",
            total("read"), statementsRun.sum(), total("late"), total("skipped"), total("dropped"), total("failed"));
    }

    private long total(String outcome) {
        java.util.concurrent.atomic.LongAdder a = totals.get(outcome);
        return a == null ? 0 : a.sum();
    }

    private void run(int n) {
        Reader r = new Reader(n);
        boolean warned = false;
        try {
            while (!stopped) {
                try {
                    r.loop();
                    return;
                } catch (RuntimeException e) {
                    // A failure with one batch (a value it could not bind, a row it could not read) drops that
                    // batch, not the reader for the rest of the run; warned once, then at debug.
                    if (stopped) {
                        return;
                    }
                    if (warned) {
                        log.debug("read-ahead {}: {}; going on", n, e.toString());
                    } else {
                        log.warn("read-ahead {}: {}; that batch is dropped, read-ahead goes on", n, e.toString());
                        warned = true;
                    }
                    r.dropBatch();
                    Thread.sleep(1_000);
                }
            }
        } catch (InterruptedException e) {
            // stopped
        } finally {
            r.closeConnection();
        }
    }

    /**
     * While read-ahead reads, the most row changes a worker should send to the target in one go (0:
     * no bound, read-ahead is off or paused). A worker buffers a unit's row events and sends them as
     * one BINLOG statement at the unit's end, up to 8 MB: a thousand transactions the target works
     * through while the worker's place, the frontier, already stands past them. Read-ahead, which
     * reads only after the frontier, then read the next unit, a whole unit ahead of the target, and on
     * a small buffer pool those pages were evicted before the target reached them (one worker read
     * 0.35-0.40 more pages a transaction with read-ahead than without, 2026-12-07). Sent in batches of
     * a quarter of the window, with the frontier just past each batch while the target applies it,
     * read-ahead reads the next few batches.
     */
    public int batchRows() {
        return stopped || paused ? 0 : Math.max(1, window.rows() / 4);
    }

    /** One reader thread's state: its connection, statements and the values it is gathering. */
    private final class Reader {
        private final int slot;
        private Connection connection;
        private StatementCache<String, PreparedStatement> statements;
        private ProbeSet batch = new ProbeSet();
        private long batchRows;
        private boolean mariadb;

        Reader(int slot) {
            this.slot = slot;
        }

        void dropBatch() {
            batch = new ProbeSet();
            batchRows = 0;
        }

        void loop() throws InterruptedException {
            Transaction pending = null;
            while (!stopped) {
                Transaction t = pending;
                pending = null;
                if (t == null) {
                    t = queue.poll(50, TimeUnit.MILLISECONDS);
                    if (t == null) {
                        flush();
                        wanted(); // while paused nothing is queued: this is where auto looks again
                        continue;
                    }
                    queuedBytes.addAndGet(-t.sizeBytes());
                }
                int rows = t.rowChanges();
                if (!wanted()) {
                    listener.rows("skipped", rows, 0);
                    continue;
                }
                switch (window.admit(t.head().sequence(), rows, sources.frontier().getAsLong())) {
                    case LATE -> listener.rows("late", rows, 0);
                    case WAIT -> {
                        pending = t;
                        if (batch.size() > 0) {
                            flush();
                        } else {
                            LockSupport.parkNanos(WAIT_PARK_NANOS);
                            if (Thread.interrupted()) {
                                throw new InterruptedException();
                            }
                        }
                    }
                    case READ -> {
                        gather(t, rows);
                        if (batch.size() >= VALUES_PER_STATEMENT || queue.isEmpty()) {
                            flush();
                        }
                    }
                }
            }
        }

        /**
         * {@code enabled: true}, or {@code auto}, at most {@value #AUTO_MAX_BUSY_WORKERS} workers
         * busy, the target reads pages from its disk (sampled at most once a second, by whichever
         * reader comes first), and the {@link Trial} finds the workers faster with read-ahead than
         * without it (or is in a phase that reads ahead).
         */
        private boolean wanted() {
            boolean wanted = decide();
            paused = !wanted;
            return wanted;
        }

        private boolean decide() {
            if (config.enabled() == ReadAheadConfig.Enabled.ON) {
                return true;
            }
            boolean few = sources.busyWorkers().getAsInt() <= AUTO_MAX_BUSY_WORKERS;
            synchronized (demand) {
                long now = System.nanoTime();
                if (!few || !(demand.due(now) ? sample(now) : demand.waiting())) {
                    trial.reset();
                    return false;
                }
                Trial.Result before = trial.last();
                boolean on = trial.on(now, sources.frontier().getAsLong());
                Trial.Result after = trial.last();
                if (after != before) {
                    String rates = String.format(java.util.Locale.ROOT, "the workers applied %.0f transactions a"
                        + " second with it, %.0f without", after.withIt(), after.without());
                    if (before == null || before.on() != after.on()) {
                        log.info("read-ahead auto: {} for {} s: {}{}", after.on() ? "on" : "off",
                            Trial.HOLD_MILLIS / 1000, rates, after.on() ? ""
                                : " (it stays on only when they are " + Trial.MARGIN_PERCENT + "% faster with it)");
                    } else {
                        log.debug("read-ahead auto: stays {}: {}", after.on() ? "on" : "off", rates);
                    }
                }
                return on;
            }
        }

        /** Reads the target's disk reads; true when it reads pages from disk (callers hold {@code demand}). */
        private boolean sample(long now) {
            boolean before = demand.waiting();
            try (Statement s = connection().createStatement();
                 ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'")) {
                boolean waiting = rs.next() && demand.sample(now, rs.getLong(2));
                if (waiting != before) {
                    log.debug("read-ahead: the target {}", waiting ? "reads pages from disk"
                        : "reads next to nothing from disk");
                }
                return waiting;
            } catch (SQLException e) {
                demand.failed(now);
                return false;
            }
        }

        private void gather(Transaction t, int rows) {
            for (Change c : t.changes()) {
                if (c instanceof Change.Rows r) {
                    TableSchema schema = sources.schemas().cached(r.table().schema(), r.table().table());
                    // Only InnoDB has a buffer pool to warm; a read of a MyISAM/Aria table takes a table
                    // lock that a worker's change would wait for.
                    if (schema != null && "InnoDB".equalsIgnoreCase(schema.engine())) {
                        batch.add(r, schema, batch.size() + window.rows());
                    }
                }
            }
            batchRows += rows;
        }

        private void flush() throws InterruptedException {
            if (batch.size() == 0) {
                batchRows = 0;
                return;
            }
            ProbeSet set = batch;
            long rows = batchRows;
            batch = new ProbeSet();
            batchRows = 0;
            long statementsRun = 0;
            try {
                Connection c = connection();
                for (ProbeSet.Probe p : set.probes()) {
                    statementsRun += read(c, p);
                }
                listener.rows("read", rows, statementsRun);
            } catch (SQLException e) {
                if (!stopped) {
                    listener.rows("failed", rows, statementsRun);
                    log.debug("read-ahead {}: {}", slot, e.toString());
                    if (e.getSQLState() == null || e.getSQLState().startsWith("08")) {
                        closeConnection(); // lost: a fresh session next time, after a pause
                        Thread.sleep(100);
                    }
                }
            }
        }

        private int read(Connection c, ProbeSet.Probe p) throws SQLException {
            List<ProbeSet.Cell[]> values = new ArrayList<>(p.values());
            int statementsRun = 0;
            int i = 0;
            while (i < values.size() && !stopped) {
                int chunk = Integer.highestOneBit(Math.min(VALUES_PER_STATEMENT, values.size() - i));
                String key = p.table().qualifiedName() + " " + p.index().name() + " " + chunk;
                PreparedStatement ps = statements.get(key);
                if (ps == null) {
                    ps = c.prepareStatement(RowSql.probe(p.table(), p.index().name(), p.columns(), chunk));
                    statements.put(key, ps);
                }
                int param = 1;
                for (int r = 0; r < chunk; r++) {
                    for (ProbeSet.Cell cell : values.get(i + r)) {
                        ValueBinder.bind(ps, param++, cell.value(), cell.binlogType(), cell.unsigned());
                    }
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        // one row: the count
                    }
                }
                statementsRun++;
                i += chunk;
            }
            return statementsRun;
        }

        private Connection connection() throws SQLException {
            if (connection != null) {
                return connection;
            }
            Connection c = sources.connections().get();
            open.set(slot, c);
            if (stopped) {
                sources.connections().discard(c);
                throw new SQLException("read-ahead stopped");
            }
            boolean mariadb;
            try {
                c.setAutoCommit(true);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
                c.setReadOnly(true); // Connector/J sets the session READ ONLY; the pool resets it on return
                mariadb = c.getMetaData().getDatabaseProductVersion().toLowerCase(java.util.Locale.ROOT)
                    .contains("mariadb");
                try (Statement s = c.createStatement()) {
                    s.execute(mariadb ? "SET SESSION max_statement_time = " + STATEMENT_SECONDS
                        : "SET SESSION max_execution_time = " + (long) (STATEMENT_SECONDS * 1000));
                }
            } catch (SQLException e) {
                // Not kept: each later flush would take (and leak) another pool connection.
                open.set(slot, null);
                cut(c);
                throw e;
            }
            statements = new StatementCache<>(STATEMENTS_PER_CONNECTION, ReadAhead::closeQuietly);
            connection = c;
            this.mariadb = mariadb;
            return c;
        }

        /**
         * Ends the session: returned to the pool with its limits undone (the pool itself resets READ
         * ONLY and the isolation level) when it still works, else cut.
         */
        void closeConnection() {
            Connection c = connection;
            connection = null;
            if (c == null) {
                return;
            }
            open.set(slot, null);
            try {
                try (Statement s = c.createStatement()) {
                    s.execute(mariadb ? "SET SESSION max_statement_time = DEFAULT"
                        : "SET SESSION max_execution_time = DEFAULT");
                }
                c.close();
            } catch (SQLException e) {
                cut(c);
            }
        }

        /** Drops {@code c} from the pool for good (it is not to be handed out again) and closes it. */
        private void cut(Connection c) {
            sources.connections().discard(c);
            try {
                c.close();
            } catch (SQLException ignored) {
                // cut already
            }
        }
    }

    private static void closeQuietly(PreparedStatement ps) {
        try {
            ps.close();
        } catch (SQLException ignored) {
            // the connection is gone
        }
    }
}
