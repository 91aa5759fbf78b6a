package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.transaction.Transaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One worker's writes to its stream's position row ({@link StateStore}), prepared once on the
 * worker's connection. Each runs in the connection's open transaction; the worker commits it.
 * Both fail with {@link ExitCode#STATE_INVALID} when the row is gone. One per worker, used on its
 * thread only.
 */
final class PositionRow {
    private final StateStore store;
    private final PreparedStatement advance;
    private final PreparedStatement pending;

    PositionRow(Connection connection, StateStore store) throws SQLException {
        this.store = store;
        this.advance = connection.prepareStatement(store.advanceSql());
        this.pending = connection.prepareStatement(store.pendingSql());
    }

    /**
     * Records the transaction starting with {@code first} as pending: DDL and non-transactional
     * changes cannot share a transaction with the position row, so a restart replays it
     * idempotently.
     */
    void markPending(Transaction first) throws SQLException {
        store.bindPending(pending, new SourcePosition(first.head().start(),
            first.head().gtid() == null ? "" : first.head().gtid().toString(), SourcePosition.ResumeBy.FILE));
        updateOne(pending);
    }

    /** Moves the position to {@code after}, in the unit's own transaction; clears pending. */
    void advance(SourcePosition after, long commitMicros, int transactions) throws SQLException {
        store.bindAdvance(advance, after, commitMicros, transactions);
        updateOne(advance);
    }

    private void updateOne(PreparedStatement update) throws SQLException {
        if (update.executeUpdate() != 1) {
            throw new ApplierException(ExitCode.STATE_INVALID, "the state row '" + store.stream() + "' in "
                + store.schema() + "." + StateStore.TABLE + " disappeared while applying: do not edit that table"
                + " while the applier runs; restart to recreate it from source.start");
        }
    }
}
