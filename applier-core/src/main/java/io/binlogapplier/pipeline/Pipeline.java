package io.binlogapplier.pipeline;

import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.apply.ApplyOptions;
import io.binlogapplier.apply.CharsetResolver;
import io.binlogapplier.apply.TableSchemaCache;
import io.binlogapplier.apply.WriteSets;
import io.binlogapplier.binlog.BinlogEvent;
import io.binlogapplier.binlog.BinlogReader;
import io.binlogapplier.binlog.SourceErrors;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.config.ReadAheadConfig;
import io.binlogapplier.filter.ReplicationFilter;
import io.binlogapplier.filter.RowEventFilter;
import io.binlogapplier.filter.StatementFilter;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.position.GtidTracker;
import io.binlogapplier.position.DdlWitness;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.readahead.ReadAhead;
import io.binlogapplier.schedule.ContendedTables;
import io.binlogapplier.schedule.UnitBounds;
import io.binlogapplier.status.NativeSqlThread;
import io.binlogapplier.schedule.UnitScheduler;
import io.binlogapplier.transaction.TransactionAssembler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One run of the stream, wired end to end: reader → assembler → ring → scheduler → workers →
 * commit sequencer. {@link #run} blocks until the stream ends (until-position reached, stop
 * requested, source lost) and everything complete has committed, or until the first failure.
 */
public final class Pipeline {
    private static final Logger log = LoggerFactory.getLogger(Pipeline.class);
    /** Transactions above this many bytes travel the ring in parts. */
    static final long PART_BYTES = 8L << 20;
    /** The longest the run thread parks between checks when nothing wakes it. */
    private static final long WAKE_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /** How a run ended without failing. */
    public enum Ending { UNTIL_REACHED, STOPPED, SOURCE_LOST }

    public record Result(Ending ending, SourcePosition position, long transactions, long rows, long units,
                         ApplierException sourceLoss) {
    }

    private final ApplierConfig config;
    private final TargetPool target;
    private final TableSchemaCache schemas;
    private final CharsetResolver charsets;
    private final StateStore state;
    private final PipelineMetrics metrics;
    private final FailureLatch failure = new FailureLatch();
    private final Faults faults;
    private final String sourceServerId;
    private volatile BinlogReader reader;
    private volatile Publisher publisher;
    private volatile CommitSequencer sequencer;
    private volatile boolean stopRequested;
    private static final java.util.concurrent.atomic.AtomicBoolean FIRST_COMMIT_LOGGED =
        new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * The start-up cost as a user sees it: how long after the process started the first unit
     * committed (JVM start, class loading, connecting, the first unit's work while the JIT warms up).
     * Counted from the JVM's own start time (milliseconds, taken as the VM is created), not from
     * {@code ProcessHandle}'s start instant: Linux gives that as clock ticks after a boot time kept
     * in whole seconds, so it is up to a second early and the figure came out up to a second long.
     */
    private static void logFirstCommit() {
        if (FIRST_COMMIT_LOGGED.getAndSet(true)) {
            return; // a later pipeline of the same process (after a reconnect)
        }
        log.info("first unit committed {} ms after the process started", System.currentTimeMillis() - jvmStartMillis());
    }

    /** When this JVM started, in milliseconds since the epoch. */
    static long jvmStartMillis() {
        return java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    }

    /** The thread in {@link #run}, woken (unparked) by everything that may end the run. */
    private volatile Thread runner;
    private volatile boolean untilReached;
    private volatile ApplierException sourceLoss;
    private final AtomicLong endUnit = new AtomicLong(-1);
    private volatile WorkerState[] workerStates;

    /**
     * @param sourceServerId the source's server_id, by which a native replica of it on the target is known
     *     (checked every few seconds: one started behind the applier's back stops it with 33), and the one a
     *     start by file position requires on the reader's connection (else 19); null: neither is checked
     */
    Pipeline(ApplierConfig config, TargetPool target, TableSchemaCache schemas, CharsetResolver charsets,
             StateStore state, PipelineMetrics metrics, Faults faults, String sourceServerId) {
        this.sourceServerId = sourceServerId;
        if (config.apply().method() == ApplyMethod.AUTO) {
            throw new IllegalArgumentException("apply.method auto is resolved by the Applier before a pipeline runs");
        }
        this.faults = faults;
        this.config = config;
        this.target = target;
        this.schemas = schemas;
        this.charsets = charsets;
        this.state = state;
        this.metrics = metrics;
    }

    /**
     * The pending unit (a DDL the last run marked and did not see through) when the target's dictionary
     * proves that it ran ({@link DdlWitness}); null when there is none, or it may not have run (then its
     * replay runs it again, skipping "already there" errors).
     */
    private BinlogCoordinates pendingThatRan(StateStore.Saved saved, Connection c) {
        if (saved.pending() == null) {
            return null;
        }
        BinlogCoordinates at = saved.pending().coordinates();
        try {
            boolean ran = new DdlWitness(state.schema(), state.stream()).ran(c, at);
            if (!c.getAutoCommit()) {
                c.commit();
            }
            if (ran) {
                log.info("the DDL at {} ran before the last run ended (the target's InnoDB dictionary has changed since"
                    + " it was marked pending): it is not run again", at);
                return at;
            }
            return null;
        } catch (SQLException e) {
            // a lost target shows at the next statement; here the replay simply runs it again, as without a record
            log.warn("cannot read the record of the target's dictionary before the DDL at {} ({}): it is run again",
                at, e.getMessage());
            return null;
        }
    }

    /**
     * Streams from {@code saved} until {@code until} (null: forever) or a stop.
     *
     * @throws ApplierException on the first fatal error; nothing after the low-water mark committed
     */
    public Result run(StateStore.Saved saved, BinlogCoordinates until, long stopTimeoutMillis)
        throws InterruptedException {
        return run(saved, until, null, stopTimeoutMillis);
    }

    /** As {@link #run(StateStore.Saved, BinlogCoordinates, long)}, also ending once {@code untilGtid} is applied. */
    public Result run(StateStore.Saved saved, BinlogCoordinates until, GtidGoal untilGtid, long stopTimeoutMillis)
        throws InterruptedException {
        String name = config.name();
        int workers = config.apply().workers();
        runner = Thread.currentThread();
        failure.whenFailed(this::wake);
        CommitSequencer seq = new CommitSequencer(failure, saved.position(), saved.sourceCommitMicros());
        seq.onCommit(this::wake);
        sequencer = seq;
        AtomicInteger threadNo = new AtomicInteger();
        Disruptor<RingSlot> disruptor = new Disruptor<>(RingSlot::new, config.apply().ringEntries(), r -> {
            Thread t = new Thread(r, "applier-" + name + "-ring-" + threadNo.getAndIncrement());
            t.setDaemon(true);
            return t;
        }, ProducerType.SINGLE, new BackoffWaitStrategy());
        RingBuffer<RingSlot> ring = disruptor.getRingBuffer();
        Publisher pub = new Publisher(ring, config.apply().ringBytes(), failure, until,
            untilGtid == null ? null : untilGtid.from(saved.position().gtids()), () -> {
            untilReached = true;
            BinlogReader r = reader;
            if (r != null) {
                r.stop();
            }
        }, metrics);
        publisher = pub;

        Connection schedulerConnection;
        try {
            schedulerConnection = target.get();
        } catch (SQLException e) {
            throw TargetErrors.connect(e);
        }
        BinlogCoordinates pendingRan = pendingThatRan(saved, schedulerConnection);
        UnitBounds bounds = new UnitBounds(config.apply().unitMaxTransactions(),
            config.apply().unitMaxTransactionsAlone(), config.apply().unitMaxBytes(),
            config.apply().unitMaxDelay().toNanos());
        UnitScheduler scheduler = new UnitScheduler(config.apply().mode(), workers, bounds,
            new GtidTracker(saved.position().gtids()), saved.position().resumeBy());
        // tables lock conflicts between units keep naming: the conflict monitor finds them, the scheduler keys them
        ContendedTables contended = new ContendedTables(WriteSets::tableKey);
        TraitsBuilder traitsBuilder = new TraitsBuilder(schemas, schedulerConnection, config.apply().mode(), contended);
        SchedulerHandler schedulerHandler = new SchedulerHandler("applier-" + name + "-scheduler", scheduler, faults,
            traitsBuilder, seq, ring,
            saved.pending() == null ? null : saved.pending().coordinates(), last -> {
                endUnit.set(last);
                wake();
            }, failure::failed, metrics);
        CountDownLatch sawEnd = new CountDownLatch(workers) {
            @Override
            public void countDown() {
                super.countDown();
                wake();
            }
        };
        WorkerState[] states = new WorkerState[workers];
        for (int i = 0; i < workers; i++) {
            states[i] = new WorkerState();
        }
        GovernorWatch governor = config.apply().workersAuto() ? new GovernorWatch(name, workers) : null;
        // how many workers take new units: under workers: auto the governor's count, otherwise all of them
        java.util.function.IntSupplier active = governor != null ? governor::active : () -> workers;
        ReadAhead readAhead = null;
        if (config.apply().readAheadRuns()) {
            readAhead = new ReadAhead(name, config.apply().readAhead(), new ReadAhead.Sources(target, schemas,
                // a quarter of the ring, but at least one part: a whole transaction up to a part's size can queue
                () -> frontier(states), () -> busy(states), Math.max(config.apply().ringBytes() / 4, PART_BYTES)),
                metrics::readAhead);
            readAhead.start();
            schedulerHandler.onScheduled(readAhead::offer);
        } else if (config.apply().readAhead().enabled() == ReadAheadConfig.Enabled.AUTO) {
            log.info("read-ahead (auto): not started beside workers: auto, which adds workers while the target reads"
                + " pages from disk; apply.read_ahead.enabled: true reads ahead all the same");
        }
        // while read-ahead reads, workers send their units in batches it can stay ahead of (0 once it stops)
        java.util.function.IntSupplier batchRows = readAhead == null ? () -> 0 : readAhead::batchRows;
        ApplyWorker.WorkerContext ctx = new ApplyWorker.WorkerContext(target, schemas, charsets, state, seq,
            failure, pub, config.apply().retries(), metrics, new ApplyOptions(config.apply().method(),
            config.apply().netEffect(), config.apply().leanBeforeImages(), config.apply().leanAfterImages()),
            states, faults, governor != null, active, ApplyWorker.restingParkNanos(config.apply().ringEntries()),
            pendingRan, batchRows);
        ApplyWorker[] handlers = new ApplyWorker[workers];
        for (int i = 0; i < workers; i++) {
            handlers[i] = new ApplyWorker(i, "applier-" + name + "-worker-" + i, ctx, sawEnd);
        }
        if (governor != null) {
            schedulerHandler.activeWorkers(governor::active);
        }
        // one worker taking units applies in source order: write sets would order nothing
        traitsBuilder.keysWanted(() -> active.getAsInt() > 1);
        disruptor.handleEventsWith(schedulerHandler).then(handlers);
        disruptor.setDefaultExceptionHandler(new FailClosed());
        disruptor.start();
        workerStates = states;
        ConflictMonitor conflicts = null;
        TargetWatch watch = null;
        SchemaWatch schemaWatch = null;
        try {
            if (workers > 1) {
                conflicts = new ConflictMonitor(name, target.get(), states, seq, metrics, contended);
                conflicts.start();
            }
            if (governor != null) {
                governor.start(target.get());
            }
            watch = new TargetWatch(name, config.target().address(), target.get(), failure,
                c -> sourceServerId == null ? null : NativeSqlThread.applyingOurSource(c, sourceServerId, config.source()));
            watch.start();
            schemaWatch = new SchemaWatch(name, target.get(), schemas, metrics::targetDefinitionsChanged);
            schemaWatch.start();
        } catch (SQLException e) {
            // The ring runs already: fail through the latch, so the path below stops it.
            failure.fail(TargetErrors.connect(e));
        }

        // filter: rows of left-out tables dropped and renamed schemas rewritten before assembly,
        // statements decided and renamed after it (README "Filters")
        ReplicationFilter rules = new ReplicationFilter(config.filter(), config.target().stateSchema());
        if (!config.filter().equals(io.binlogapplier.config.FilterConfig.NONE)) {
            log.info("{}", rules);
        }
        metrics.streamStarted(new Probe(ring, pub, states, seq,
            config.apply().ringEntries() + workers * bounds.mostTransactions(),
            active));

        TransactionAssembler assembler = new TransactionAssembler(saved.position().coordinates().file(), PART_BYTES,
            pub, new StatementFilter(rules, charsets::charsetOf));
        RowEventFilter rowFilter = new RowEventFilter(rules, assembler::accept, metrics::rowEventFiltered);
        // Raw row events are kept whatever the method: tables with triggers on the target are applied
        // with BINLOG statements even under apply.method sql.
        // Row values are decoded on the reader thread when the workers render SQL or the scheduler needs
        // write sets; under the BINLOG method in conservative mode nothing reads them but a unit applied
        // again as SQL, so they are decoded only then (RowImages); likewise in optimistic mode while one
        // worker takes new units (workers: 1, or workers: auto at one: no write sets then). While more
        // do, the reader decodes them, off the scheduler's thread.
        java.util.function.BooleanSupplier lazyRows;
        if (config.apply().method() != ApplyMethod.BINLOG) {
            lazyRows = () -> false;
        } else if (config.apply().mode() != io.binlogapplier.config.ApplyMode.OPTIMISTIC) {
            lazyRows = () -> true;
        } else {
            lazyRows = () -> active.getAsInt() == 1;
        }
        BinlogReader r = new BinlogReader(config.source(), "applier-" + name + "-reader", true, lazyRows);
        Long sourceId = io.binlogapplier.position.SourceIdentity.parse(sourceServerId);
        if (sourceId != null) {
            r.requireSourceServerId(sourceId); // the server the start checked and recorded (Applier)
        }
        reader = r;
        if (stopRequested || failure.failed()) {
            // Stopped before the reader existed, so requestStop() found nothing to stop: a stopped
            // reader ends at once without connecting, and its end publishes END as after any stop.
            r.stop();
        }
        r.start(saved.position(), new BinlogReader.Listener() {
            @Override
            public void onEvent(BinlogEvent event) throws InterruptedException {
                faults.at(Faults.Point.READER_EVENT, null);
                rowFilter.accept(event);
            }

            @Override
            public void onEnd(ApplierException f) {
                if (f != null && !(SourceErrors.isTransient(f) && !failure.failed())) {
                    failure.fail(f);
                    return;
                }
                if (f != null) {
                    sourceLoss = f;
                    log.warn("{}", f.getMessage());
                }
                try {
                    pub.end(!assembler.idle());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });

        long stopDeadline = Long.MAX_VALUE;
        boolean firstCommitSeen = false;
        try {
            while (!failure.failed()) {
                if (!firstCommitSeen && seq.committed() > 0) {
                    firstCommitSeen = true;
                    logFirstCommit();
                }
                long last = endUnit.get();
                if (last >= 0 && sawEnd.getCount() == 0 && seq.committed() >= last) {
                    break;
                }
                if (stopRequested && stopDeadline == Long.MAX_VALUE) {
                    stopDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(stopTimeoutMillis);
                }
                long now = System.nanoTime();
                if (now > stopDeadline) {
                    failure.fail(new ApplierException(ExitCode.STOP_TIMEOUT, "in-flight units did not finish within "
                        + stopTimeoutMillis + " ms of the stop request; they were rolled back and will be applied"
                        + " again on the next start"));
                    break;
                }
                // Woken by a commit, the END marker reaching a worker or the scheduler, a failure or a
                // stop request; the timeout only bounds a wake-up that raced with the checks above.
                LockSupport.parkNanos(this, Math.min(WAKE_BOUND_NANOS, stopDeadline - now));
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
        } finally {
            if (failure.failed()) {
                // Nothing more may commit: cut the workers' connections first (the server rolls back
                // what they hold), then stop the rest.
                abortWorkers(handlers);
            }
            if (readAhead != null) {
                readAhead.close();
            }
            if (governor != null) {
                governor.close();
            }
            if (conflicts != null) {
                conflicts.close();
            }
            if (watch != null) {
                watch.close();
            }
            if (schemaWatch != null) {
                schemaWatch.close();
            }
            r.stop();
            r.join(5_000);
            disruptor.halt();
            if (failure.failed()) {
                // The scheduler may be inside a metadata query to a lost target: close() would wait for it.
                target.discard(schedulerConnection);
            }
            try {
                schedulerConnection.close();
            } catch (SQLException ignored) {
                // closing a broken connection
            }
        }
        if (failure.failed()) {
            throw failure.failure();
        }
        Ending ending = untilReached ? Ending.UNTIL_REACHED : sourceLoss != null ? Ending.SOURCE_LOST : Ending.STOPPED;
        return new Result(ending, seq.lowWater(), seq.committedTransactions(), seq.committedRows(),
            seq.committed(), sourceLoss);
    }

    /**
     * The oldest transaction a worker is applying; with every worker idle, the one after the next: the
     * next transaction goes to a worker at once, so reading it ahead would only race the worker.
     */
    static long frontier(WorkerState[] states) {
        long oldest = Long.MAX_VALUE;
        long newest = 0;
        for (WorkerState w : states) {
            long a = w.applying;
            if (w.unit != 0 && a > 0) {
                oldest = Math.min(oldest, a);
            }
            newest = Math.max(newest, a);
        }
        return oldest != Long.MAX_VALUE ? oldest : newest + 2;
    }

    static int busy(WorkerState[] states) {
        int busy = 0;
        for (WorkerState w : states) {
            if (w.unit != 0) {
                busy++;
            }
        }
        return busy;
    }

    /** Requests a graceful stop: read no more, commit what is complete, roll back the rest. */
    public void requestStop() {
        stopRequested = true;
        BinlogReader r = reader;
        if (r != null) {
            r.stop();
        }
        wake();
    }

    private void wake() {
        Thread t = runner;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Transactions, rows and units committed by this pipeline so far (also after it failed). */
    long[] committed() {
        CommitSequencer s = sequencer;
        return s == null ? new long[3] : new long[] {s.committedTransactions(), s.committedRows(), s.committed()};
    }

    /**
     * The target connection ids of this pipeline's workers (0: none yet): after the target was lost,
     * sessions the server still keeps for them may hold a unit's row locks until they are killed.
     */
    long[] workerConnectionIds() {
        WorkerState[] states = workerStates;
        if (states == null) {
            return new long[0];
        }
        long[] ids = new long[states.length];
        for (int i = 0; i < states.length; i++) {
            ids[i] = states[i].connectionId;
        }
        return ids;
    }

    /** The low-water mark right now (null before the run starts). */
    public SourcePosition lowWater() {
        CommitSequencer s = sequencer;
        return s == null ? null : s.lowWater();
    }

    /**
     * Cuts every worker's connection at once: a worker blocked in a database call learns of the
     * failure only when the call returns, and must not commit meanwhile. Aborting never commits; the
     * server rolls back the open transaction of a connection that goes away.
     */
    private void abortWorkers(ApplyWorker[] workers) {
        for (ApplyWorker w : workers) {
            w.abortConnection();
        }
    }

    /**
     * Gauges read through this, on demand. Transactions in flight are bounded by the ring (a worker
     * blocked in a unit holds back the ring) plus the units the workers hold, each at most
     * {@code unit_max_transactions}.
     */
    private record Probe(RingBuffer<RingSlot> ring, Publisher publisher, WorkerState[] states, CommitSequencer seq,
                         int inFlightBound, java.util.function.IntSupplier active) implements PipelineProbe {
        @Override
        public int activeWorkers() {
            return active.getAsInt();
        }

        @Override
        public long ringEntries() {
            return ring.getBufferSize() - ring.remainingCapacity();
        }

        @Override
        public long ringBytes() {
            return publisher.bytesInFlight();
        }

        @Override
        public int busyWorkers() {
            return busy(states);
        }

        @Override
        public int workers() {
            return states.length;
        }

        @Override
        public long appliedTransactions() {
            return seq.committedTransactions();
        }

        @Override
        public SourcePosition appliedPosition() {
            return seq.lowWater();
        }

        @Override
        public long appliedCommitMicros() {
            return seq.lowWaterCommitMicros();
        }
    }

    /** Never let Disruptor skip an event: any exception stops the pipeline. */
    private final class FailClosed implements ExceptionHandler<Object> {
        @Override
        public void handleEventException(Throwable ex, long sequence, Object event) {
            record(ex);
        }

        @Override
        public void handleOnStartException(Throwable ex) {
            record(ex);
        }

        @Override
        public void handleOnShutdownException(Throwable ex) {
            log.debug("handler shutdown: {}", ex.toString());
        }

        private void record(Throwable ex) {
            if (ex instanceof FailureLatch.PipelineStopped) {
                return;
            }
            if (ex instanceof SQLException se) {
                failure.fail(TargetErrors.failure(se, "a target statement", "the pipeline"));
            } else if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                failure.fail(new ApplierException(ExitCode.INTERNAL, "pipeline thread interrupted", ex));
            } else {
                failure.fail(ex);
            }
        }
    }
}
