package io.binlogapplier.pipeline;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.Sequence;
import io.binlogapplier.ApplierException;
import io.binlogapplier.apply.ApplyOptions;
import io.binlogapplier.apply.CharsetResolver;
import io.binlogapplier.apply.TableSchemaCache;
import io.binlogapplier.apply.TransactionApplier;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.schedule.Decision;
import io.binlogapplier.transaction.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * One worker: a ring handler that applies the units the scheduler assigned to it, on the target
 * connection it owns for its whole life. Per unit: wait for the unit it depends on, apply every
 * part, wait for its turn, write the position row in the same transaction, commit.
 *
 * <p>The unit in progress is a {@link UnitInProgress}; the position row a {@link PositionRow}.
 * When a step fails, {@link RetryPolicy} decides and the worker carries it out: a unit that loses
 * a lock conflict (deadlock, lock-wait timeout, or preempted because an earlier unit waits for its
 * locks) is rolled back, waits until every earlier unit committed, and is applied again from its
 * retained parts; at most {@code apply.retries} times.
 */
final class ApplyWorker implements EventHandler<RingSlot> {
    private static final Logger log = LoggerFactory.getLogger(ApplyWorker.class);
    /**
     * At most how long a resting worker (see {@link #resting}) sleeps after each batch of slots it
     * passed. Without it, the 15 workers {@code workers: auto} keeps in reserve each woke for nearly
     * every slot of a CPU-bound catch-up (spin, yield, a 20 µs park: thousands of wake-ups a second
     * each) and took CPU from the target; asleep, each passes the slots of several milliseconds at
     * once. See {@link #restingParkNanos}.
     */
    static final long MAX_RESTING_PARK_NANOS = 10_000_000;

    private final int index;
    private final String threadName;
    private final WorkerContext ctx;
    private final CountDownLatch sawEnd;
    private final WorkerState state;
    private final RetryPolicy policy;
    private final UnitInProgress unit = new UnitInProgress();
    /** Row changes of the open unit given to the applier since its last batch went to the target. */
    private long unsentRows;
    private Sequence progress = new Sequence();

    private volatile Connection connection;
    private final AtomicBoolean discarded = new AtomicBoolean();
    private TransactionApplier applier;
    private PositionRow position;

    /** What all workers of a pipeline share. */
    record WorkerContext(ConnectionSource connections, TableSchemaCache schemas, CharsetResolver charsets,
                         StateStore state, CommitSequencer sequencer, FailureLatch failure, Publisher publisher,
                         int retries, PipelineMetrics metrics, ApplyOptions options, WorkerState[] workers,
                         Faults faults, boolean connectWhenUsed, IntSupplier activeWorkers,
                         long restingParkNanos, BinlogCoordinates pendingRan, IntSupplier batchRows) {
    }

    /**
     * How long a resting worker sleeps on a ring of {@code ringEntries} slots: as long as the ring
     * takes to fill at 500,000 slots a second, at most {@link #MAX_RESTING_PARK_NANOS} (8 ms for the
     * default 4,096). The reader needs free slots, and a sleeper holds the slots it has not passed;
     * so only a ring already nearly full, with work queued for the active workers, waits for one.
     */
    static long restingParkNanos(int ringEntries) {
        return Math.min(MAX_RESTING_PARK_NANOS, ringEntries * 2_000L);
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
        this.policy = new RetryPolicy(ctx.retries());
    }

    @Override
    public void onStart() {
        Thread.currentThread().setName(threadName);
        if (index > 0 && ctx.connectWhenUsed()) {
            return; // workers: auto: connects when given its first unit (handle)
        }
        connect();
    }

    private void connect() {
        try {
            connection = ctx.connections().get();
            applier = new TransactionApplier(connection, ctx.schemas(), ctx.charsets(), ctx.options(),
                ctx.workers().length);
            position = new PositionRow(connection, ctx.state());
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
        if (unit.isOpen() || ctx.failure().failed() || discarded.get()) {
            abortConnection();
        } else {
            try {
                c.rollback();
            } catch (SQLException e) {
                log.debug("rollback on shutdown: {}", e.toString());
            }
        }
        if (applier != null) { // null when connecting failed after the connection was taken
            applier.close();
        }
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
        if (endOfBatch && resting()) {
            LockSupport.parkNanos(ctx.restingParkNanos());
        }
    }

    /**
     * No unit open, and not among the workers the scheduler gives new units to
     * ({@code workers: auto}): nothing waits for this worker, so it may pass slots late. A unit it
     * is given all the same (the count fell after the scheduler chose it) starts at most one sleep
     * later; correctness never depends on when a worker sees a slot.
     */
    private boolean resting() {
        return !unit.isOpen() && index >= ctx.activeWorkers().getAsInt();
    }

    private void handle(RingSlot slot) throws Exception {
        if (slot.kind == RingSlot.Kind.END) {
            if (unit.isOpen()) {
                // The stream ended inside this unit (a large transaction cut off): nothing of it may commit.
                applier.discard();
                connection.rollback();
                ctx.publisher().release(unit.bytes());
                endUnit();
            }
            sawEnd.countDown();
            return;
        }
        if (ctx.failure().failed()) {
            return;
        }
        if (unit.isOpen() && state.preemptedBy.get() != 0) {
            // Preempted while waiting for the unit's next part: give way now, not when the part arrives.
            run(unit.decision(), () -> { });
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
        if (connection == null) {
            connect();
            if (ctx.failure().failed()) {
                return;
            }
        }
        Transaction t = slot.transaction;
        slot.transaction = null;
        if (d.unitStart()) {
            begin(d, t, slot.replay);
        }
        unit.received(t);
        if (d.barrier()) {
            // A barrier runs alone and is never retried: apply it as it streams in and let its bytes go.
            applyBarrierPart(d, t);
            ctx.faults().at(Faults.Point.WORKER_PART_APPLIED, t);
        } else {
            unit.keep(t, d.deferred(), d.joinWait());
            run(d, this::applyPending);
            ctx.faults().at(Faults.Point.WORKER_PART_APPLIED, t);
        }
        if (d.unitEnd()) {
            run(d, () -> commit(d));
        }
    }

    private void begin(Decision d, Transaction first, boolean replay) throws SQLException, InterruptedException {
        ctx.sequencer().awaitCommitted(d.waitFor());
        unit.begin(d, replay, ctx.sequencer().committed() >= d.unitId() - 1);
        unsentRows = 0;
        applier.sqlOnly(false);
        state.preemptedBy.set(0);
        state.unit = d.unitId();
        if (d.pending()) {
            // DDL and non-transactional changes cannot share a transaction with the position row: record
            // the transaction as pending first, so a restart replays it idempotently (StateStore).
            position.markPending(first);
            connection.commit();
        }
    }

    /**
     * Applies every retained part not yet in the open target transaction. {@code state.applying}, the
     * frontier read-ahead reads after, is the first transaction the target has not been sent: row
     * events wait in the applier's buffer until it is full or the unit ends. While read-ahead reads,
     * they go in batches of {@code batchRows} row changes, the frontier just past each batch.
     */
    private void applyPending() throws SQLException {
        for (Transaction t = unit.nextToApply(); t != null; t = unit.nextToApply()) {
            state.checkPreempted();
            if (unsentRows == 0) {
                state.applying = t.head().sequence();
            }
            applier.apply(t, unit.replay());
            unit.applied();
            unsentRows += t.rowChanges();
            int batch = ctx.batchRows().getAsInt();
            if (batch > 0 && unsentRows >= batch) {
                state.applying = t.head().sequence() + 1;
                applier.sendBinlog();
                unsentRows = 0;
            }
        }
    }

    private void applyBarrierPart(Decision d, Transaction t) throws SQLException {
        state.applying = t.head().sequence();
        try {
            // a DDL that ran before the last run ended (DdlWitness) is not run again: only the position moves
            if (!(unit.replay() && t.head().start().equals(ctx.pendingRan()))) {
                applier.apply(t, unit.replay());
            }
            if (d.unitEnd()) {
                applier.flush();
            }
        } catch (SQLException e) {
            if (TransactionApplier.binlogUnknownError(e)) {
                throw named(TargetErrors.binlogUnknown(d.unitId(), TransactionApplier.describe(t), e), t);
            }
            throw named(TargetErrors.failure(e, "applying", TransactionApplier.describe(t)), t);
        }
        ctx.publisher().release(t.sizeBytes());
        unit.released(t.sizeBytes());
    }

    /**
     * At the unit's end, before its tail: wait for the earlier units the tail shares keys with. The
     * unit's other rows are sent first (BINLOG statements and net effects are otherwise held until the
     * unit ends), so the target does their work, page reads included, while this unit waits instead of
     * after. Their locks are held meanwhile, and a predecessor that needs one preempts this unit (the
     * wait gives way).
     */
    private void awaitTail(long waitFor) throws SQLException, InterruptedException {
        if (ctx.sequencer().committed() >= waitFor) {
            return;
        }
        applier.flush();
        state.busySince = 0;
        ctx.sequencer().awaitCommitted(waitFor, state);
        state.busySince = System.nanoTime();
    }

    /** Wait for the turn, write the position row in the unit's transaction, commit. */
    private void commit(Decision d) throws SQLException, InterruptedException {
        applyPending();
        if (unit.tailWaiting()) {
            awaitTail(unit.tailWait());
            unit.openTail();
            applyPending();
        }
        applier.flush();
        // Wait for the turn first: every unit updates the same position row, so a later unit that
        // took the row lock before its turn would block the earlier unit it waits for.
        state.busySince = 0; // waiting for the turn is not a database call
        ctx.sequencer().awaitCommitted(d.unitId() - 1, state);
        state.busySince = System.nanoTime();
        ctx.failure().check();
        if (unit.endsInRollback()) {
            // The source rolled this back; only its non-transactional changes remain, as on the source. (Such
            // a transaction is a barrier, so it is alone in its unit, and its parts are not kept: ask the unit.)
            connection.rollback();
        }
        position.advance(d.positionAfter(), unit.commitMicros(), d.transactions());
        connection.commit();
        ctx.sequencer().markCommitted(d.unitId(), d.positionAfter(), unit.commitMicros(), d.transactions(),
            unit.rows());
        ctx.publisher().release(unit.bytes());
        ctx.metrics().unitCommitted(d.transactions(), unit.rows(), unit.bytes());
        int tailParts = unit.tailParts();
        if (tailParts > 0) {
            ctx.metrics().tailApplied(tailParts);
        }
        long[] counts = applier.takeCounts();
        ctx.metrics().netEffect(counts[0], counts[1], counts[2]);
        ctx.metrics().leanImages(counts[3], counts[4]);
        ctx.metrics().linkedRows(counts[5], counts[6]);
        endUnit();
    }

    private void endUnit() {
        unit.reset();
        state.unit = 0;
        state.preemptedBy.set(0);
    }

    /** Runs a step; when it fails, does what {@link RetryPolicy} decides, and runs it again unless that is to fail. */
    private void run(Decision d, Step step) throws SQLException, InterruptedException {
        while (true) {
            try {
                state.busySince = System.nanoTime();
                applyPending();
                step.run();
                return;
            } catch (WorkerState.Preempted p) {
                recover(d, new RetryPolicy.Preempted(p.blockedUnit));
            } catch (SQLException e) {
                recover(d, RetryPolicy.SqlError.of(e));
            } catch (ApplierException e) {
                recover(d, new RetryPolicy.ApplierError(e));
            } finally {
                state.busySince = 0;
            }
        }
    }

    /** Carries out the policy's decision on {@code failure}; returns to run the step again, or throws. */
    private void recover(Decision d, RetryPolicy.Failure failure) throws SQLException, InterruptedException {
        RetryPolicy.Next next = policy.next(situation(d), failure);
        if (next instanceof RetryPolicy.RedoAsSql redo) {
            againAsSql(d, redo);
            return;
        }
        RetryPolicy.Retry retry = next instanceof RetryPolicy.Retry r ? r : ((RetryPolicy.Fail) next).refused();
        if (retry != null && retry.inFlightConflict() != null) {
            // A row missing, duplicated or unreferenced while earlier units were still in flight may be
            // their doing (a foreign key, a key we do not know): redo the unit once after all of them.
            log.info("unit {} met a data conflict while earlier units were in flight ({}); retrying it after"
                + " them before calling it a real one", d.unitId(), retry.inFlightConflict().getMessage());
        }
        if (next instanceof RetryPolicy.Fail fail) {
            throw named(fail.error(), unit.current());
        }
        retryAfterPredecessors(d, retry);
    }

    /** Names the source transaction {@code t} in a failure, for the last error the target keeps. */
    private static ApplierException named(ApplierException e, Transaction t) {
        if (t == null) {
            return e;
        }
        return e.inTransaction(new io.binlogapplier.position.TransactionRef(
            t.head().gtid() == null ? "" : t.head().gtid().toString(), t.head().start()));
    }

    private RetryPolicy.Unit situation(Decision d) {
        Transaction part = unit.current();
        Transaction last = unit.last();
        // A unit applied with its tail last ran in another order than the source's: only a run in source order
        // makes a data conflict real, as a run beside earlier units does.
        return new RetryPolicy.Unit(d.unitId(), d.barrier(), unit.attempts(), unit.startedAlone() && !unit.reordered(),
            unit.serialRetried(), applier.mayNameTheRowByApplyingInOrder(), unit.redoneAsSql(),
            part == null ? null : TransactionApplier.describe(part),
            last == null ? null : TransactionApplier.describe(last));
    }

    /**
     * A BINLOG statement holds many source transactions and says neither which one nor which row
     * failed, nor, with "Unknown error", why: roll back and apply the unit as SQL, row by row, which
     * names all of them when it fails again.
     */
    private void againAsSql(Decision d, RetryPolicy.RedoAsSql redo) throws SQLException {
        if (redo.conflict() == null) {
            log.warn("a BINLOG statement of unit {} failed with 'Unknown error'; applying that unit as SQL",
                d.unitId());
        } else {
            // A net effect or batch that merely reordered rows (a unique value moving between rows, a row a cascade
            // removed and the source inserted again) applies in source order without it, so it may be no conflict:
            // the cause only, not the advice to repair the target that a real conflict gets.
            Throwable cause = redo.conflict().getCause();
            log.info("unit {} met a duplicate or missing row ({}), which applying its rows grouped rather than in"
                + " source order can cause; applying it again as SQL, in source order: that either applies it (the"
                + " target is then as it should be) or names the row and the transaction", d.unitId(),
                cause instanceof SQLException e ? io.binlogapplier.errors.Messages.withCode(e)
                    : io.binlogapplier.errors.Messages.firstLine(redo.conflict()));
        }
        rollback();
        ctx.metrics().retried(RetryPolicy.REDONE_AS_SQL);
        unit.redoAsSql();
        applier.sqlOnly(true);
    }

    private void retryAfterPredecessors(Decision d, RetryPolicy.Retry retry)
        throws SQLException, InterruptedException {
        unit.retrying(retry.inFlightConflict() != null);
        rollback();
        ctx.metrics().retried(retry.reason());
        log.info("unit {} lost a lock conflict ({}); retrying after its predecessors commit (retry {} of {})",
            d.unitId(), retry.why(), unit.attempts(), ctx.retries());
        if (retry.laterUnitsGiveWay() && !ctx.failure().failed()) {
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
        unit.openTail(); // every earlier unit committed: the tail has nothing left to wait for
    }

    private void rollback() throws SQLException {
        connection.rollback();
        applier.discard();
        unit.rolledBack();
        unsentRows = 0;
    }
}
