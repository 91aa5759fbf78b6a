package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.position.DdlWitness;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger log = LoggerFactory.getLogger(PositionRow.class);
    private final StateStore store;
    private final PreparedStatement advance;
    private final PreparedStatement pending;
    private final Connection connection;
    private final DdlWitness witness;

    PositionRow(Connection connection, StateStore store) throws SQLException {
        this.store = store;
        this.connection = connection;
        this.witness = new DdlWitness(store.schema(), store.stream());
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
        java.util.Set<String> names = ddlNames(first);
        if (names != null && !witness.record(connection, first.head().start(), names)
            && WARNED.compareAndSet(false, true)) {
            log.warn("cannot read the target's InnoDB dictionary (information_schema.INNODB_SYS_TABLES: GRANT PROCESS"
                + " ON *.* to the target user): after a crash between a DDL and the position update the DDL is run"
                + " again, which undoes a RENAME TABLE swap or an EXCHANGE PARTITION");
        }
    }

    private static final java.util.concurrent.atomic.AtomicBoolean WARNED = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * The words of the transaction's DDL statements that may name tables; null when it holds none that
     * may change a table's definition (a GRANT, ANALYZE or TRUNCATE changes nothing the witness compares).
     */
    private static java.util.Set<String> ddlNames(Transaction t) {
        java.util.Set<String> names = null;
        for (Change c : t.changes()) {
            if (c instanceof Change.Statement s && s.changesTableDefinitions()) {
                if (names == null) {
                    names = new java.util.TreeSet<>();
                }
                // names as bytes of the statement: ASCII identifiers read the same in any of its character sets
                names.addAll(DdlWitness.names(new String(s.sql(), java.nio.charset.StandardCharsets.UTF_8)));
            }
        }
        return names;
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
