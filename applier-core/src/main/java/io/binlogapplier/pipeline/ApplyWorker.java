package io.binlogapplier.pipeline;

import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.Sequence;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.apply.CharsetResolver;
import io.binlogapplier.apply.TableSchemaCache;
import io.binlogapplier.apply.TransactionApplier;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.schedule.Decision;
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
import java.util.concurrent.CountDownLatch;

/**
 * One worker: a ring handler that applies the units the scheduler assigned to it, on the target
 * connection it owns for its whole life. Per unit: wait for the unit it depends on, apply every
 * part, wait for its turn, write the position row in the same transaction, commit.
 *
 * <p>A unit that loses a lock conflict (deadlock, lock-wait timeout, or preempted because an
 * earlier unit waits for its locks) is rolled back, waits until every earlier unit committed, and
 * is applied again from its retained parts; at most {@code apply.retries} times.
 */
final class ApplyWorker implements EventHandler<RingSlot> {
    private static final Logger log = LoggerFactory.getLogger(ApplyWorker.class);

    private final int index;
    private final String threadName;
    private final WorkerContext ctx;
    private final CountDownLatch sawEnd;
    private final WorkerState state;
    private Sequence progress = new Sequence();

    private volatile Connection connection;
    private final java.util.concurrent.atomic.AtomicBoolean discarded = new java.util.concurrent.atomic.AtomicBoolean();
    private TransactionApplier applier;
    private PreparedStatement advance;
    private PreparedStatement pending;

    // the unit in progress
    private long unitId;
    private final List<Transaction> parts = new ArrayList<>();
    /** How many of {@link #parts} are applied in the open target transaction. */
    private int applied;
    private int attempts;
    private long unitBytes;
    private long unitRows;
    private boolean unitReplay;
    private boolean sqlFallback;
    private boolean startedAlone;
    private boolean serialRetried;
    private long lastCommitMicros;

    /** What all workers of a pipeline share. */
    record WorkerContext(ConnectionSource connections, TableSchemaCache schemas, CharsetResolver charsets,
                         StateStore state, CommitSequencer sequencer, FailureLatch failure, Publisher publisher,
                         int retries, PipelineMetrics metrics, ApplyMethod method, WorkerState[] workers,
                         Faults faults, boolean netEffect) {
    }

    /** Hands out target connections; the worker closes (returns) its own, or discards it. */
    interface ConnectionSource {
        Connection get() throws SQLException;

        /** Closes {@code c} for good without committing; the server rolls back what it holds. */
        void discard(Connection c);
    }

    /** One step of a unit that may have to be redone after a retry. */
    private interface Step {
        void run() throws SQLException, InterruptedException;
    }

    ApplyWorker(int index, String threadName, WorkerContext ctx, CountDownLatch sawEnd) {
        this.index = index;
        this.threadName = threadName;
        this.ctx = ctx;
        this.sawEnd = sawEnd;
        this.state = ctx.workers()[index];
    }

    @Override
    public void onStart() {
        Thread.currentThread().setName(threadName);
        try {
            connection = ctx.connections().get();
            applier = new TransactionApplier(connection, ctx.schemas(), ctx.charsets(), ctx.method(),
                ctx.netEffect());
            advance = connection.prepareStatement(ctx.state().advanceSql());
            pending = connection.prepareStatement(ctx.state().pendingSql());
            try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                state.connectionId = rs.getLong(1);
            }
        } catch (SQLException | RuntimeException e) {
            ctx.failure().fail(TargetErrors.connect(e));
        }
    }

    /**
     * Returns the connection to the pool only when no unit is open and the pipeline did not fail;
     * otherwise discards it, so nothing it holds can ever commit (see {@link #abortConnection}).
     */
    @Override
    public void onShutdown() {
        Connection c = connection;
        if (c == null) {
            return;
        }
        if (unitId != 0 || ctx.failure().failed() || discarded.get()) {
            abortConnection();
        } else {
            try {
                c.rollback();
            } catch (SQLException e) {
                log.debug("rollback on shutdown: {}", e.toString());
            }
        }
        applier.close();
        try {
            c.close();
        } catch (SQLException e) {
            log.debug("closing worker connection: {}", e.toString());
        }
    }

    /**
     * Cuts this worker's connection, from any thread: the pipeline failed, and whatever unit it
     * holds must roll back, never commit. A call the worker is inside fails; the worker then finds
     * the pipeline failed and does nothing more.
     */
    void abortConnection() {
        Connection c = connection;
        if (c != null && discarded.compareAndSet(false, true)) {
            ctx.connections().discard(c);
        }
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
            handle(slot);
        } finally {
            progress.set(sequence);
        }
    }

    private void handle(RingSlot slot) throws Exception {
        if (slot.kind == RingSlot.Kind.END) {
            if (unitId != 0) {
                // The stream ended inside this unit (a large transaction cut off): nothing of it may commit.
                applier.discard();
                connection.rollback();
                ctx.publisher().release(unitBytes);
                endUnit();
            }
            sawEnd.countDown();
            return;
        }
        if (ctx.failure().failed()) {
            return;
        }
        if (unitId != 0 && state.preemptedBy.get() != 0) {
            // Preempted while waiting for the unit's next part: give way now, not when the part arrives.
            run(unitDecision, () -> { });
        }
        if (slot.kind != RingSlot.Kind.TRANSACTION) {
            return;
        }
        Decision d = slot.decision;
        if (d == null) {
            return; // the scheduler failed on this slot; its error stops the pipeline
        }
        if (d.worker() != index) {
            return;
        }
        Transaction t = slot.transaction;
        slot.transaction = null;
        if (d.unitStart()) {
            begin(d, t, slot.replay);
        }
        unitBytes += t.sizeBytes();
        countRows(t);
        if (t.lastPart()) {
            lastCommitMicros = t.end().commitMicros();
        }
        if (d.barrier()) {
            // A barrier runs alone and is never retried: apply it as it streams in and let its bytes go.
            applyBarrierPart(d, t);
            ctx.faults().at(Faults.Point.WORKER_PART_APPLIED, t);
        } else {
            if (d.joinWait() > 0) {
                run(d, () -> awaitJoin(d.joinWait()));
            }
            parts.add(t);
            run(d, this::applyPending);
            ctx.faults().at(Faults.Point.WORKER_PART_APPLIED, t);
        }
        if (d.unitEnd()) {
            run(d, () -> commit(d));
        }
    }

    private Decision unitDecision;

    private void begin(Decision d, Transaction first, boolean replay) throws SQLException, InterruptedException {
        ctx.sequencer().awaitCommitted(d.waitFor());
        startedAlone = ctx.sequencer().committed() >= d.unitId() - 1;
        serialRetried = false;
        unitId = d.unitId();
        unitDecision = d;
        parts.clear();
        applied = 0;
        attempts = 0;
        unitBytes = 0;
        unitRows = 0;
        unitReplay = replay;
        sqlFallback = false;
        applier.sqlOnly(false);
        state.preemptedBy.set(0);
        state.unit = d.unitId();
        if (d.pending()) {
            // DDL and non-transactional changes cannot share a transaction with the position row: record
            // the transaction as pending first, so a restart replays it idempotently (StateStore).
            ctx.state().bindPending(pending, new SourcePosition(first.head().start(),
                first.head().gtid() == null ? "" : first.head().gtid().toString(), SourcePosition.ResumeBy.FILE));
            if (pending.executeUpdate() != 1) {
                throw stateRowMissing();
            }
            connection.commit();
        }
    }

    /** Applies every retained part not yet in the open target transaction. */
    private void applyPending() throws SQLException {
        while (applied < parts.size()) {
            state.checkPreempted();
            applier.apply(parts.get(applied), unitReplay);
            applied++;
        }
    }

    private void applyBarrierPart(Decision d, Transaction t) throws SQLException {
        try {
            applier.apply(t, unitReplay);
            if (d.unitEnd()) {
                applier.flush();
            }
        } catch (SQLException e) {
            if (TransactionApplier.binlogUnknownError(e)) {
                throw binlogUnknown(d, t, e);
            }
            throw TargetErrors.failure(e, "applying", TransactionApplier.describe(t));
        }
        ctx.publisher().release(t.sizeBytes());
        unitBytes -= t.sizeBytes();
    }

    /**
     * Inside the unit, before its next part: wait for an earlier unit that part shares a key with.
     * The unit's rows so far may not be sent yet (BINLOG method); under SQL their locks are held
     * meanwhile, and a predecessor that needs one preempts this unit (the wait gives way).
     */
    private void awaitJoin(long unit) throws SQLException, InterruptedException {
        if (ctx.sequencer().committed() >= unit) {
            return;
        }
        state.busySince = 0;
        ctx.sequencer().awaitCommitted(unit, state);
        state.busySince = System.nanoTime();
    }

    /** Wait for the turn, write the position row in the unit's transaction, commit. */
    private void commit(Decision d) throws SQLException, InterruptedException {
        applyPending();
        applier.flush();
        // Wait for the turn first: every unit updates the same position row, so a later unit that
        // took the row lock before its turn would block the earlier unit it waits for.
        state.busySince = 0; // waiting for the turn is not a database call
        ctx.sequencer().awaitCommitted(d.unitId() - 1, state);
        state.busySince = System.nanoTime();
        ctx.failure().check();
        Transaction last = parts.isEmpty() ? null : parts.get(parts.size() - 1);
        if (last != null && last.end().rollback()) {
            // The source rolled this back; only its non-transactional changes remain, as on the source.
            connection.rollback();
        }
        ctx.state().bindAdvance(advance, d.positionAfter(), lastCommitMicros, d.transactions());
        if (advance.executeUpdate() != 1) {
            throw stateRowMissing();
        }
        connection.commit();
        ctx.sequencer().markCommitted(d.unitId(), d.positionAfter(), lastCommitMicros, d.transactions(), unitRows);
        ctx.publisher().release(unitBytes);
        ctx.metrics().unitCommitted(d.transactions(), unitRows, unitBytes);
        long[] counts = applier.takeCounts();
        ctx.metrics().netEffect(counts[0], counts[1], counts[2]);
        endUnit();
    }

    private void endUnit() {
        unitId = 0;
        unitDecision = null;
        state.unit = 0;
        state.preemptedBy.set(0);
        parts.clear();
        applied = 0;
        unitBytes = 0;
    }

    /** Runs a step; a lost conflict rolls the unit back, waits for its predecessors and redoes the parts. */
    private void run(Decision d, Step step) throws SQLException, InterruptedException {
        while (true) {
            try {
                state.busySince = System.nanoTime();
                applyPending();
                step.run();
                return;
            } catch (WorkerState.Preempted p) {
                retry(d, "an earlier unit (" + p.blockedUnit + ") waits for one of its locks", "preempted", null);
            } catch (SQLException e) {
                if (TransactionApplier.binlogUnknownError(e)) {
                    if (sqlFallback) {
                        throw binlogUnknown(d, parts.isEmpty() ? null : parts.get(parts.size() - 1), e);
                    }
                    // Learn the cause: roll back and apply the unit as SQL, which reports errors in full.
                    log.warn("a BINLOG statement of unit {} failed with 'Unknown error'; applying that unit as SQL",
                        d.unitId());
                    rollback();
                    sqlFallback = true;
                    applier.sqlOnly(true);
                    continue;
                }
                Classification c = ErrorClassifier.classify(e, Side.TARGET);
                Transaction t = parts.isEmpty() ? null : parts.get(Math.min(applied, parts.size() - 1));
                String where = t == null ? "unit " + d.unitId() : TransactionApplier.describe(t);
                if (c.action() == Classification.Action.FATAL) {
                    ApplierException fatal = Messages.targetFailure(e, "applying", where);
                    if (!orderingMayExplain(d, fatal)) {
                        if (mayNameTheRow(d, fatal)) {
                            againAsSql(d, fatal);
                            continue;
                        }
                        throw fatal;
                    }
                    log.info("unit {} met a data conflict while earlier units were in flight ({}); retrying it after"
                        + " them before calling it a real one", d.unitId(), fatal.getMessage());
                    serialRetried = true;
                    retry(d, "data conflict while earlier units were in flight", "data_conflict_in_flight", null);
                    continue;
                }
                if (c.action() == Classification.Action.RECONNECT) {
                    throw TargetErrors.connect(e);
                }
                retry(d, Messages.withCode(e), c.reason(), e);
            } catch (ApplierException e) {
                if (!orderingMayExplain(d, e)) {
                    if (mayNameTheRow(d, e)) {
                        againAsSql(d, e);
                        continue;
                    }
                    throw e;
                }
                // A row missing, duplicated or unreferenced while earlier units were still in flight may be
                // their doing (a foreign key, a key we do not know): redo the unit once after all of them.
                log.info("unit {} met a data conflict while earlier units were in flight ({}); retrying it after"
                    + " them before calling it a real one", d.unitId(), e.getMessage());
                serialRetried = true;
                retry(d, "data conflict while earlier units were in flight", "data_conflict_in_flight", null);
            } finally {
                state.busySince = 0;
            }
        }
    }

    /** A data conflict is only real once the unit has run with every earlier unit committed. */
    private boolean orderingMayExplain(Decision d, ApplierException e) {
        return e.exitCode() == ExitCode.TARGET_DATA_CONFLICT && !d.barrier() && !startedAlone && !serialRetried;
    }

    /**
     * A data conflict from a BINLOG statement or a net effect of a unit whose parts are kept: SQL
     * applied in order can tell which row.
     */
    private boolean mayNameTheRow(Decision d, ApplierException e) {
        return e.exitCode() == ExitCode.TARGET_DATA_CONFLICT && applier.mayNameTheRowByApplyingInOrder() && !d.barrier();
    }

    /**
     * A BINLOG statement holds many source transactions and says neither which one nor which row
     * failed: roll back and apply the unit as SQL, row by row, which names both when it fails again.
     */
    private void againAsSql(Decision d, ApplierException e) throws SQLException {
        log.info("unit {} met a data conflict ({}); applying it again as SQL, in source order, to name the row and"
            + " the transaction", d.unitId(), e.getMessage());
        rollback();
        sqlFallback = true;
        applier.sqlOnly(true);
    }

    private void retry(Decision d, String why, String reason, SQLException cause)
        throws SQLException, InterruptedException {
        if (d.barrier()) {
            // A barrier's parts are not kept (it may be huge) and nothing runs beside it: no retry.
            throw new ApplierException(ExitCode.TARGET_STATEMENT_FAILED, "unit " + d.unitId() + " (applied alone)"
                + " failed (" + why + "): another session on the target holds locks the applier needs; stop it and"
                + " restart", cause);
        }
        if (++attempts > ctx.retries()) {
            throw new ApplierException(ExitCode.TARGET_STATEMENT_FAILED, "gave up on unit " + d.unitId() + " after "
                + ctx.retries() + " retries (" + why + "): check the target for locks held by other sessions or raise"
                + " apply.retries", cause);
        }
        rollback();
        ctx.metrics().retried(reason);
        log.info("unit {} lost a lock conflict ({}); retrying after its predecessors commit (retry {} of {})",
            d.unitId(), why, attempts, ctx.retries());
        if (cause != null && !ctx.failure().failed()) {
            // Without the monitor's help a later unit may hold what we wait for: make every later unit give way.
            for (WorkerState w : ctx.workers()) {
                if (w != state && w.unit > d.unitId()) {
                    w.preempt(w.unit, d.unitId());
                }
            }
            ctx.sequencer().wakeAll();
        }
        state.preemptedBy.set(0);
        ctx.sequencer().awaitCommitted(d.unitId() - 1);
        state.preemptedBy.set(0);
    }

    private void rollback() throws SQLException {
        connection.rollback();
        applier.discard();
        applied = 0;
    }

    private void countRows(Transaction t) {
        for (Change c : t.changes()) {
            if (c instanceof Change.Rows r) {
                unitRows += r.rowCount();
            }
        }
    }

    private ApplierException binlogUnknown(Decision d, Transaction t, SQLException e) {
        return new ApplierException(ExitCode.TARGET_STATEMENT_FAILED, "the target could not apply a row event of unit "
            + d.unitId() + " (error 1105: Unknown error; MariaDB logs the cause in its error log as BINLOG_BASE64_EVENT)"
            + (t == null ? "" : " near " + TransactionApplier.describe(t)) + ": read the target's error log, fix the"
            + " cause (often a column type that differs from the source's) and restart", e);
    }

    private ApplierException stateRowMissing() {
        return new ApplierException(ExitCode.STATE_INVALID, "the state row '" + ctx.state().stream() + "' in "
            + ctx.state().schema() + "." + StateStore.TABLE + " disappeared while applying: do not edit that table"
            + " while the applier runs; restart to recreate it from source.start");
    }
}
