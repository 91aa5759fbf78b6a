package io.binlogapplier.pipeline;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.binlogapplier.config.TargetConfig;
import io.binlogapplier.target.TargetConnections;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The target's connection pool (HikariCP): one connection per worker for its whole life, plus the
 * scheduler's and the control connection. Connector/J runs with server-side prepared statements.
 *
 * <p>After the target was lost, {@link #renew} replaces the pool as a whole: every connection of the
 * old one is dead or was cut, and a fresh pool connects at once instead of waiting out the old
 * pool's own retry backoff. Thread-safe.
 */
public final class TargetPool implements AutoCloseable, ApplyWorker.ConnectionSource,
    io.binlogapplier.readahead.ReadAhead.Connections {
    /**
     * The long data of a BINLOG statement (its base64, a prepared statement's parameter) goes in
     * packets of this size. Connector/J builds each in its shared send packet, which it grows a
     * quarter at a time from 1 KB and replaces with a new 1 KB one once it has sent more than 1 MB:
     * at its default of 1 MB a chunk (plus the packet's header) the buffer was grown again for each
     * chunk (222 MB allocated in a 111k-transaction catch-up, 2 MB with this size). Below 1 MB it
     * grows once and is reused.
     */
    static final int LONG_DATA_CHUNK_BYTES = 512 << 10;

    private final TargetConfig target;
    private final int size;
    private final int idle;
    private final String name;
    private volatile HikariDataSource pool;
    private volatile boolean closed;

    private TargetPool(TargetConfig target, int size, int idle, String name, HikariDataSource pool) {
        this.target = target;
        this.size = size;
        this.idle = idle;
        this.name = name;
        this.pool = pool;
    }

    /** Opens the pool and one connection to prove the target is there; fails with a one-line error. */
    public static TargetPool open(TargetConfig target, int size, String name) {
        return open(target, size, size, name);
    }

    /**
     * As {@link #open(TargetConfig, int, String)}, making only {@code idle} of the {@code size}
     * connections at the start ({@code workers: auto}, whose idle workers connect when first used).
     */
    public static TargetPool open(TargetConfig target, int size, int idle, String name) {
        return new TargetPool(target, size, idle, name, dataSource(target, size, idle, name,
            target.connectTimeout().toMillis()));
    }

    /**
     * Replaces the pool with a new one, which must connect at the first try (bounded by
     * {@code target.connect_timeout}); the old pool is closed in the background.
     *
     * @throws io.binlogapplier.ApplierException the target is still unreachable (or refuses us), as {@link TargetErrors#connect}
     */
    void renew() {
        HikariDataSource fresh = dataSource(target, size, idle, name, 1);
        HikariDataSource old;
        synchronized (this) {
            if (closed) {
                fresh.close();
                return;
            }
            old = pool;
            pool = fresh;
        }
        // Closing waits for the old pool's connection-adding threads, which may sleep in their backoff.
        Thread closer = new Thread(old::close, "applier-" + name + "-target-pool-close");
        closer.setDaemon(true);
        closer.start();
    }

    private static HikariDataSource dataSource(TargetConfig target, int size, int idle, String name,
                                               long failFastMillis) {
        HikariConfig c = new HikariConfig();
        c.setPoolName("applier-" + name + "-target");
        c.setJdbcUrl(TargetConnections.jdbcUrl(target));
        c.setDataSourceProperties(TargetConnections.properties(target)); // TLS and the common settings
        c.setUsername(target.user());
        c.setPassword(target.password().value());
        c.setMaximumPoolSize(size);
        c.setMinimumIdle(idle); // every worker's connection made at the start, not under load (but see open)
        c.setAutoCommit(true);
        c.setConnectionTimeout(Math.max(250, target.connectTimeout().toMillis()));
        c.setInitializationFailTimeout(Math.max(1, failFastMillis));
        c.setMaxLifetime(0);
        c.setIdleTimeout(0);
        c.setKeepaliveTime(60_000);
        c.setExceptionOverrideClassName(KeepConnectionOnUnknownError.class.getName());
        c.addDataSourceProperty("useServerPrepStmts", "true");
        c.addDataSourceProperty("cachePrepStmts", "false");
        c.addDataSourceProperty("rewriteBatchedStatements", "false");
        // Row statements go several per round trip as one multi-statement query (StatementBatch).
        c.addDataSourceProperty("allowMultiQueries", "true");
        c.addDataSourceProperty("useLocalSessionState", "true");
        // Not useLocalTransactionState: with it the driver skips a rollback() it believes needless,
        // from the last server status it read. A worker failing between the server running a
        // statement and the driver reading the answer (an OutOfMemoryError) then left the statement
        // open, and the pool's reset to autocommit=1 committed part of a source transaction.
        c.addDataSourceProperty("elideSetAutoCommits", "true");
        c.addDataSourceProperty("cacheServerConfiguration", "true");
        c.addDataSourceProperty("maintainTimeStats", "false");
        c.addDataSourceProperty("jdbcCompliantTruncation", "false");
        c.addDataSourceProperty("tinyInt1isBit", "false");
        c.addDataSourceProperty("yearIsDateType", "false");
        c.addDataSourceProperty("zeroDateTimeBehavior", "round");
        // No statement waits for the target's answer longer than this: a connection the network lost
        // without a word fails here at the latest (TargetWatch notices a lost target much sooner).
        c.addDataSourceProperty("socketTimeout", Long.toString(Math.min(Integer.MAX_VALUE,
            target.statementTimeout().toMillis())));
        c.addDataSourceProperty("tcpKeepAlive", "true");
        c.addDataSourceProperty("blobSendChunkSize", Integer.toString(LONG_DATA_CHUNK_BYTES));
        try {
            return new HikariDataSource(c);
        } catch (RuntimeException e) {
            throw TargetErrors.connect(e, target.address());
        }
    }

    /**
     * A connection of the pool. One that a failure cut ({@link #discard}) may have gone back to the
     * pool as idle, and the pool hands out a recently used connection without a test: such a
     * connection is closed on the driver's side, a flag read here without a round trip, and is
     * evicted for the next.
     */
    @Override
    public Connection get() throws SQLException {
        HikariDataSource p = pool;
        while (true) {
            Connection c = p.getConnection();
            if (!c.unwrap(Connection.class).isClosed()) {
                return c;
            }
            p.evictConnection(c);
            try {
                c.close(); // returned evicted: the pool closes it for good
            } catch (SQLException e) {
                // it was closed already
            }
        }
    }

    /**
     * Takes {@code c} (a connection of this pool) out of use for good: the driver's socket is closed
     * at once, so the server rolls back whatever transaction it holds. The pool then finds the
     * connection broken when it is closed (returned) and evicts it, without a reset that could
     * commit. Safe from any thread, and while another thread is inside a call on {@code c}, which
     * then fails.
     */
    @Override
    public void discard(Connection c) {
        try {
            c.unwrap(Connection.class).abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
            // already closed: nothing left to roll back
        }
    }

    @Override
    public void close() {
        HikariDataSource p;
        synchronized (this) {
            closed = true;
            p = pool;
        }
        p.close();
    }
}
