package io.binlogapplier.pipeline;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.transaction.Transaction;

/**
 * What the pipeline reports as it happens. Implementations must be thread-safe and cheap:
 * {@link #received}, {@link #readerAt} and {@link #unitCommitted} run on the hot path (reader and
 * worker threads), so no locks, no I/O, no allocation per row. Every method does nothing by default.
 * Tag values passed as {@code reason} or {@code kind} come from a small fixed set (never error text).
 */
public interface PipelineMetrics {
    PipelineMetrics NONE = new PipelineMetrics() {
    };

    /** DDL run on the target by someone else was seen: the table definitions are read again ({@link SchemaWatch}). */
    default void targetDefinitionsChanged() {
    }

    /** A stream (one connection to the source) starts; {@code probe} reads that pipeline's state on demand. */
    default void streamStarted(PipelineProbe probe) {
    }

    /** A transaction part went onto the ring (reader thread); {@code part.lastPart()}: the transaction is whole. */
    default void received(Transaction part) {
    }

    /** The reader passed {@code position} between transactions (reader thread). */
    default void readerAt(BinlogCoordinates position) {
    }

    /** The source's binlog ends at {@code end}: from a heartbeat or from SHOW MASTER STATUS. */
    default void sourceEnd(BinlogCoordinates end) {
    }

    /**
     * The source's binlog files and their sizes in bytes, oldest first, as SHOW BINARY LOGS lists
     * them; read again whenever the source's end moves to another file.
     */
    default void sourceLogs(java.util.List<io.binlogapplier.position.BinlogFileSize> files) {
    }

    /** The filter dropped a rows event of a table it leaves out (reader thread). */
    default void rowEventFiltered() {
    }

    /** A unit committed on the target (worker thread; calls of different workers may arrive out of order). */
    default void unitCommitted(int transactions, long rows, long bytes) {
    }

    /**
     * A unit was rolled back to be applied again. {@code reason}: preempted, deadlock,
     * lock_wait_timeout, interrupted, data_conflict_in_flight, redone_as_sql (a BINLOG statement, net
     * effect or batch failed without naming its row: applied again as SQL, row by row) or other.
     */
    default void retried(String reason) {
    }

    /**
     * A unit committed that applied {@code transactions} of its transactions in its tail, after the
     * others, once the earlier units they share keys with had committed (optimistic mode).
     */
    default void tailApplied(int transactions) {
    }

    /**
     * A barrier transaction was scheduled (it runs alone). {@code cause}: ddl, large_transaction,
     * source_rollback, statement_dml or non_transactional.
     */
    default void barrier(String cause) {
    }

    /**
     * A unit applied with the SQL method committed: {@code netRows} row changes went out as their net
     * effect in {@code statements} statements; {@code orderedRows} row changes were applied one by one
     * in source order (tables where the net effect is not provably equal, see the README).
     */
    default void netEffect(long netRows, long statements, long orderedRows) {
    }

    /**
     * A unit applied with the SQL method committed: {@code rows} row changes to tables foreign keys
     * link went out grouped by key in {@code statements} statements (multi-row INSERTs, DELETEs of
     * key lists, UPDATEs one by one) rather than one statement each in source order.
     */
    default void linkedRows(long rows, long statements) {
    }

    /**
     * A unit committed whose BINLOG statements left {@code beforeBytesDropped} bytes of UPDATE and
     * DELETE before images out ({@code apply.lean_before_images}) and {@code afterBytesDropped} bytes of
     * UPDATE after images ({@code apply.lean_after_images}); called with 0 as well.
     */
    default void leanImages(long beforeBytesDropped, long afterBytesDropped) {
    }

    /**
     * Read-ahead dealt with {@code rows} row changes: {@code outcome} read (in {@code statements}
     * statements), late (a worker was there first), skipped ({@code auto} found no reason to read
     * ahead), dropped (its queue was full) or failed.
     */
    default void readAhead(String outcome, long rows, long statements) {
    }

    /** The conflict monitor made a later unit give way. {@code reason}: lock_wait or long_statement. */
    default void conflict(String reason) {
    }

    /**
     * Lock conflicts between units kept naming a table that keys did not show: from now on its changes in
     * different units wait for each other ({@link io.binlogapplier.schedule.ContendedTables}).
     */
    default void tableContended() {
    }

    /**
     * Something went wrong. {@code kind}: an {@link io.binlogapplier.ExitCode} name in lower case for
     * a failure that stops the applier, {@code source_lost} / {@code target_lost} for a lost source /
     * target that is reconnected,
     * {@code source_end_poll} when the source's binlog end could not be read, {@code flush_settings}
     * when the target's flush settings could not be changed.
     */
    default void error(String kind) {
    }

    /** A reconnect attempt to a lost server begins. {@code side}: source or target. */
    default void reconnect(String side) {
    }

    /** Reports to {@code first}, then to {@code second}. */
    static PipelineMetrics tee(PipelineMetrics first, PipelineMetrics second) {
        if (second == NONE) {
            return first;
        }
        if (first == NONE) {
            return second;
        }
        return new PipelineMetrics() {
            @Override
            public void targetDefinitionsChanged() {
                first.targetDefinitionsChanged();
                second.targetDefinitionsChanged();
            }

            @Override
            public void streamStarted(PipelineProbe probe) {
                first.streamStarted(probe);
                second.streamStarted(probe);
            }

            @Override
            public void received(Transaction part) {
                first.received(part);
                second.received(part);
            }

            @Override
            public void readerAt(BinlogCoordinates position) {
                first.readerAt(position);
                second.readerAt(position);
            }

            @Override
            public void sourceEnd(BinlogCoordinates end) {
                first.sourceEnd(end);
                second.sourceEnd(end);
            }

            @Override
            public void sourceLogs(java.util.List<io.binlogapplier.position.BinlogFileSize> files) {
                first.sourceLogs(files);
                second.sourceLogs(files);
            }

            @Override
            public void rowEventFiltered() {
                first.rowEventFiltered();
                second.rowEventFiltered();
            }

            @Override
            public void unitCommitted(int transactions, long rows, long bytes) {
                first.unitCommitted(transactions, rows, bytes);
                second.unitCommitted(transactions, rows, bytes);
            }

            @Override
            public void retried(String reason) {
                first.retried(reason);
                second.retried(reason);
            }

            @Override
            public void tailApplied(int transactions) {
                first.tailApplied(transactions);
                second.tailApplied(transactions);
            }

            @Override
            public void barrier(String cause) {
                first.barrier(cause);
                second.barrier(cause);
            }

            @Override
            public void netEffect(long netRows, long statements, long orderedRows) {
                first.netEffect(netRows, statements, orderedRows);
                second.netEffect(netRows, statements, orderedRows);
            }

            @Override
            public void leanImages(long beforeBytesDropped, long afterBytesDropped) {
                first.leanImages(beforeBytesDropped, afterBytesDropped);
                second.leanImages(beforeBytesDropped, afterBytesDropped);
            }

            @Override
            public void linkedRows(long rows, long statements) {
                first.linkedRows(rows, statements);
                second.linkedRows(rows, statements);
            }

            @Override
            public void readAhead(String outcome, long rows, long statements) {
                first.readAhead(outcome, rows, statements);
                second.readAhead(outcome, rows, statements);
            }

            @Override
            public void conflict(String reason) {
                first.conflict(reason);
                second.conflict(reason);
            }

            @Override
            public void tableContended() {
                first.tableContended();
                second.tableContended();
            }

            @Override
            public void error(String kind) {
                first.error(kind);
                second.error(kind);
            }

            @Override
            public void reconnect(String side) {
                first.reconnect(side);
                second.reconnect(side);
            }
        };
    }
}
