package io.binlogapplier.pipeline;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.binlogapplier.config.TargetConfig;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The target's connection pool (HikariCP): one connection per worker for its whole life, plus the
 * scheduler's and the control connection. Connector/J runs with server-side prepared statements.
 */
public final class TargetPool implements AutoCloseable, ApplyWorker.ConnectionSource {
    private final HikariDataSource pool;

    private TargetPool(HikariDataSource pool) {
        this.pool = pool;
    }

    /** Opens the pool and one connection to prove the target is there; fails with a one-line error. */
    public static TargetPool open(TargetConfig target, int size, String name) {
        HikariConfig c = new HikariConfig();
        c.setPoolName("applier-" + name + "-target");
        c.setJdbcUrl("jdbc:mysql://" + target.host() + ":" + target.port() + "/");
        c.setUsername(target.user());
        c.setPassword(target.password().value());
        c.setMaximumPoolSize(size);
        c.setMinimumIdle(size); // every worker's connection made at the start, not under load
        c.setAutoCommit(true);
        c.setConnectionTimeout(Math.max(250, target.connectTimeout().toMillis()));
        c.setInitializationFailTimeout(Math.max(1, target.connectTimeout().toMillis()));
        c.setMaxLifetime(0);
        c.setIdleTimeout(0);
        c.setKeepaliveTime(60_000);
        c.setExceptionOverrideClassName(KeepConnectionOnUnknownError.class.getName());
        c.addDataSourceProperty("useServerPrepStmts", "true");
        c.addDataSourceProperty("cachePrepStmts", "false");
        c.addDataSourceProperty("rewriteBatchedStatements", "false");
        c.addDataSourceProperty("characterEncoding", "UTF-8");
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
        c.addDataSourceProperty("sslMode", "PREFERRED");
        c.addDataSourceProperty("allowPublicKeyRetrieval", "true");
        c.addDataSourceProperty("connectTimeout", Long.toString(target.connectTimeout().toMillis()));
        try {
            return new TargetPool(new HikariDataSource(c));
        } catch (RuntimeException e) {
            throw TargetErrors.connect(e);
        }
    }

    @Override
    public Connection get() throws SQLException {
        return pool.getConnection();
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
        pool.close();
    }
}
