package io.binlogapplier.pipeline;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.Sequence;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.apply.CharsetResolver;
import io.binlogapplier.apply.SqlErrors;
import io.binlogapplier.apply.TableSchemaCache;
import io.binlogapplier.apply.TransactionApplier;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.schedule.Decision;
import io.binlogapplier.transaction.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * One worker: a ring handler that applies the units the scheduler assigned to it, on the target
 * connection it owns for its whole life. Per unit: wait for the unit it depends on, apply every
 * part, write the position row in the same transaction, wait for its turn, commit.
 */
final class ApplyWorker implements EventHandler<RingSlot> {
    private Sequence progress = new Sequence();
    private static final Logger log = LoggerFactory.getLogger(ApplyWorker.class);

    private final int index;
    private final String threadName;
    private final WorkerContext ctx;
    private final CountDownLatch sawEnd;

    private Connection connection;
    private TransactionApplier applier;
    private PreparedStatement advance;
    private PreparedStatement pending;

    // the unit in progress
    private long unitId;
    private final List<Transaction> parts = new ArrayList<>();
    private long unitBytes;
    private long unitRows;
    private boolean unitReplay;
    private boolean sqlFallback;
    private long lastCommitMicros;

    /** What all workers of a pipeline share. */
    record WorkerContext(ConnectionSource connections, TableSchemaCache schemas, CharsetResolver charsets,
                         StateStore state, CommitSequencer sequencer, FailureLatch failure, Publisher publisher,
                         int retries, PipelineMetrics metrics, io.binlogapplier.config.ApplyMethod method) {
    }

    /** Hands out target connections; the worker closes (returns) its own. */
    interface ConnectionSource {
        Connection get() throws SQLException;
    }

    ApplyWorker(int index, String threadName, WorkerContext ctx, CountDownLatch sawEnd) {
        this.index = index;
        this.threadName = threadName;
        this.ctx = ctx;
        this.sawEnd = sawEnd;
    }

    @Override
    public void onStart() {
        Thread.currentThread().setName(threadName);
        try {
            connection = ctx.connections().get();
            applier = new TransactionApplier(connection, ctx.schemas(), ctx.charsets(), ctx.method());
            advance = connection.prepareStatement(ctx.state().advanceSql());
            pending = connection.prepareStatement(ctx.state().pendingSql());
        } catch (SQLException | RuntimeException e) {
            ctx.failure().fail(TargetErrors.connect(e));
        }
    }

    @Override
    public void onShutdown() {
        if (connection == null) {
            return;
        }
        try {
            if (unitId != 0) {
                connection.rollback();
            }
        } catch (SQLException e) {
            log.debug("rollback on shutdown: {}", e.toString());
        }
        applier.close();
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("closing worker connection: {}", e.toString());
        }
    }

    Connection connection() {
        return connection;
    }

    /**
     * Disruptor publishes a handler's progress only at the end of a batch; we publish it after every
     * slot, because a handler may block inside a batch while others need the slots it already passed
     * (a worker needs the scheduler's verdicts; the producer needs the ring space).
     */
    @Override
    public void setSequenceCallback(Sequence sequenceCallback) {
        this.progress = sequenceCallback;
    }

    @Override
    public void onEvent(RingSlot slot, long sequence, boolean endOfBatch) throws Exception {
        try {
            handle(slot, sequence, endOfBatch);
        } finally {
            progress.set(sequence);
        }
    }

    private void handle(RingSlot slot, long sequence, boolean endOfBatch) throws Exception {
        if (slot.kind == RingSlot.Kind.END) {
            if (unitId != 0) {
                // The stream ended inside this unit (a large transaction cut off): nothing of it may commit.
                applier.discard();
                connection.rollback();
                ctx.publisher().release(unitBytes);
                unitId = 0;
            }
            sawEnd.countDown();
            return;
        }
        if (slot.kind != RingSlot.Kind.TRANSACTION || ctx.failure().failed()) {
            return;
        }
        Decision d = slot.decision;
        if (d.worker() != index) {
            return;
        }
        Transaction t = slot.transaction;
        slot.transaction = null;
        if (d.unitStart()) {
            begin(d, t, slot.replay);
        }
        apply(d, t);
        if (d.unitEnd()) {
            finish(d, t);
        }
    }

    private void begin(Decision d, Transaction first, boolean replay) throws SQLException, InterruptedException {
        ctx.sequencer().awaitCommitted(d.waitFor());
        unitId = d.unitId();
        parts.clear();
        unitBytes = 0;
        unitRows = 0;
        unitReplay = replay;
        sqlFallback = false;
        applier.sqlOnly(false);
        if (d.pending()) {
            // DDL and non-transactional changes cannot share a transaction with the position row: record
            // the transaction as pending first, so a restart replays it idempotently (StateStore).
            ctx.state().bindPending(pending, new io.binlogapplier.position.SourcePosition(first.head().start(),
                first.head().gtid() == null ? "" : first.head().gtid().toString(),
                io.binlogapplier.position.SourcePosition.ResumeBy.FILE));
            if (pending.executeUpdate() != 1) {
                throw stateRowMissing();
            }
            connection.commit();
        }
    }

    private void apply(Decision d, Transaction t) throws SQLException, InterruptedException {
        unitBytes += t.sizeBytes();
        if (!d.barrier()) {
            parts.add(t);
        }
        int attempt = 0;
        while (true) {
            try {
                if (attempt == 0) {
                    applier.apply(t, unitReplay);
                } else {
                    for (Transaction p : parts) {
                        applier.apply(p, unitReplay);
                    }
                }
                if (d.unitEnd()) {
                    applier.flush();
                }
                break;
            } catch (SQLException e) {
                SqlErrors.Verdict v = SqlErrors.verdict(e);
                if (TransactionApplier.binlogUnknownError(e)) {
                    if (d.barrier() || sqlFallback) {
                        throw new ApplierException(ExitCode.TARGET_STATEMENT_FAILED, "the target could not apply a row"
                            + " event of unit " + d.unitId() + " (error 1105: Unknown error; MariaDB logs the cause in"
                            + " its error log as BINLOG_BASE64_EVENT) near " + TransactionApplier.describe(t)
                            + ": read the target's error log, fix the cause (often a column type that differs from"
                            + " the source's) and restart", e);
                    }
                    // Learn the cause: roll back and apply the unit as SQL, which reports errors in full.
                    log.warn("a BINLOG statement of unit {} failed with 'Unknown error'; applying that unit as SQL",
                        d.unitId());
                    connection.rollback();
                    applier.discard();
                    sqlFallback = true;
                    applier.sqlOnly(true);
                    attempt = 1;
                    continue;
                }
                if (v == SqlErrors.Verdict.FATAL) {
                    throw SqlErrors.fatal(e, "applying", TransactionApplier.describe(t));
                }
                if (v == SqlErrors.Verdict.RECONNECT || d.barrier() || ++attempt > ctx.retries()) {
                    throw new ApplierException(v == SqlErrors.Verdict.RECONNECT ? ExitCode.TARGET_UNREACHABLE
                        : ExitCode.TARGET_STATEMENT_FAILED, "gave up on unit " + d.unitId() + " after " + attempt
                        + " attempts (" + SqlErrors.verdict(e) + ": " + e.getMessage() + ") in "
                        + TransactionApplier.describe(t) + ": check the target for locks held by other sessions"
                        + " or raise apply.retries", e);
                }
                connection.rollback();
                applier.discard();
                ctx.metrics().retried(e.getMessage());
                log.info("unit {} lost a lock conflict ({}); retrying after its predecessors commit (attempt {})",
                    d.unitId(), SqlErrors.verdict(e), attempt);
                ctx.sequencer().awaitCommitted(d.unitId() - 1);
            }
        }
        for (io.binlogapplier.transaction.Change c : t.changes()) {
            if (c instanceof io.binlogapplier.transaction.Change.Rows r) {
                unitRows += r.rowCount();
            }
        }
        if (d.barrier()) {
            // A barrier runs alone and is never retried: its bytes can leave the budget as soon as applied.
            ctx.publisher().release(t.sizeBytes());
            unitBytes -= t.sizeBytes();
        }
        lastCommitMicros = t.lastPart() ? t.end().commitMicros() : lastCommitMicros;
    }

    private void finish(Decision d, Transaction last) throws SQLException, InterruptedException {
        if (last.end().rollback()) {
            // The source rolled this back; only its non-transactional changes remain, as on the source.
            connection.rollback();
        }
        // Wait for the turn first: every unit updates the same position row, so a later unit that
        // took the row lock before its turn would block the earlier unit it waits for.
        ctx.sequencer().awaitCommitted(d.unitId() - 1);
        ctx.failure().check();
        ctx.state().bindAdvance(advance, d.positionAfter(), lastCommitMicros, d.transactions());
        if (advance.executeUpdate() != 1) {
            throw stateRowMissing();
        }
        connection.commit();
        ctx.sequencer().markCommitted(d.unitId(), d.positionAfter(), lastCommitMicros, d.transactions(), unitRows);
        ctx.publisher().release(unitBytes);
        ctx.metrics().unitCommitted(d.transactions(), unitRows, unitBytes);
        unitId = 0;
        parts.clear();
        unitBytes = 0;
    }

    private ApplierException stateRowMissing() {
        return new ApplierException(ExitCode.STATE_INVALID, "the state row '" + ctx.state().stream() + "' in "
            + ctx.state().schema() + "." + StateStore.TABLE + " disappeared while applying: do not edit that table"
            + " while the applier runs; restart to recreate it from source.start");
    }
}
