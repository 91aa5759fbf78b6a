package io.binlogapplier.pipeline;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Ending a thread that watches the target on a connection of its own (the target watch, the
 * conflict monitor, the governor). Pure coordination, no state.
 */
final class WatchThreads {
    private WatchThreads() {
    }

    /**
     * Requests the stop, waits up to {@code joinMillis} for the thread, then closes its connection;
     * a thread still inside a query gets its connection cut first, since to a lost target the query
     * may never return and closing would wait for it.
     *
     * @param connection null when the thread never got one
     * @return the error closing the connection met, or null
     */
    static Exception end(StopSignal stop, Thread thread, Connection connection, long joinMillis) {
        stop.request();
        try {
            if (thread.isAlive()) {
                thread.join(joinMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (connection == null) {
            return null;
        }
        try {
            if (thread.isAlive()) {
                connection.unwrap(Connection.class).abort(Runnable::run);
            }
            connection.close();
            return null;
        } catch (SQLException | RuntimeException e) {
            return e;
        }
    }
}
