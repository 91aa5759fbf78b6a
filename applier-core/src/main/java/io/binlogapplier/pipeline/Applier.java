package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.apply.CharsetResolver;
import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.apply.MethodResolver;
import io.binlogapplier.apply.TableSchemaCache;
import io.binlogapplier.binlog.SourceErrors;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ReconnectLimit;
import io.binlogapplier.config.StartPosition;
import io.binlogapplier.durability.Durability;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Side;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.position.SourceIdentity;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.DdlWitness;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.status.Liveness;
import io.binlogapplier.status.NativeSqlThread;
import io.binlogapplier.status.RunTable;
import io.binlogapplier.status.StreamLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Runs one applier: checks the source, finds where to start (the target's state row, else
 * {@code source.start}), and runs pipelines until the until-position, a stop request or a fatal
 * error; a lost source or target is reconnected, from the committed position, with backoff, as often as
 * its {@code reconnect_attempts} allow (by default forever).
 */
public final class Applier {
    private static final Logger log = LoggerFactory.getLogger(Applier.class);
    /** How often the source's binlog end is read while streaming (for the lag). */
    static final long SOURCE_END_POLL_MILLIS = 1000;

    /** How far to apply: forever, or up to a source position. */
    public sealed interface Until {
        /** Never stop by position. */
        record Forever() implements Until {
        }

        /** Everything the source had written when the applier started. */
        record Current() implements Until {
        }

        record At(BinlogCoordinates coordinates) implements Until {
        }

        /** Until the applied position holds this GTID goal (see {@link GtidGoal}). */
        record Gtid(GtidGoal goal) implements Until {
        }
    }

    /** What a run achieved; {@code position} is null when a stop ended it during start-up, before any was read. */
    public record Outcome(SourcePosition position, long transactions, long rows, long units, long millis,
                          boolean nothingToDo) {
    }

    private final ApplierConfig config;
    private final PipelineMetrics metrics;
    private final ApplierStatus status;
    private final long stopTimeoutMillis;
    private volatile Pipeline current;
    /** What apply.method resolved to at this run's start; set before any pipeline runs. */
    private volatile MethodChoice method;
    /** The source's server_id, read at start: a native replica of it on the target is watched for while running. */
    private volatile String sourceServerId;
    private final StopSignal stop = new StopSignal();
    private final Faults faults;
    /** When the target server started (its epoch seconds), as last seen: tells a restart from a partition. */
    private volatile long targetStarted;
    /** Set when another process took the stream's lock while the target was away. */
    private volatile ApplierException lockLost;

    public ApplierConfig config() {
        return config;
    }

    public Applier(ApplierConfig config, PipelineMetrics metrics, long stopTimeoutMillis) {
        this(config, metrics, stopTimeoutMillis, new ApplierStatus(Clock.systemUTC()));
    }

    /** @param status told everything {@code metrics} is told, and the run's state; read it for health and lag */
    public Applier(ApplierConfig config, PipelineMetrics metrics, long stopTimeoutMillis, ApplierStatus status) {
        this(config, metrics, stopTimeoutMillis, status, Faults.NONE);
    }

    /** As the public constructor, with faults injected by a test. */
    Applier(ApplierConfig config, PipelineMetrics metrics, long stopTimeoutMillis, ApplierStatus status,
            Faults faults) {
        this.faults = faults;
        this.config = config;
        this.status = status;
        this.metrics = PipelineMetrics.tee(status, metrics);
        this.stopTimeoutMillis = stopTimeoutMillis;
        // Heartbeats come every source.heartbeat while the source is idle, its end is read every second
        // while it is busy: three of either missed and "caught up" is no longer known.
        java.time.Duration beat = config.source().heartbeat();
        java.time.Duration poll = java.time.Duration.ofMillis(SOURCE_END_POLL_MILLIS);
        status.sourceSilentAfter((beat.compareTo(poll) > 0 ? beat : poll).multipliedBy(3));
    }

    public ApplierStatus status() {
        return status;
    }

    public Outcome run(Until until) throws InterruptedException {
        try {
            Outcome o = apply(until);
            status.stopped();
            return o;
        } catch (RuntimeException e) {
            ApplierException failure = ApplierException.of(e);
            if (stop.requested() && endsAStartThatWasStopped(failure.exitCode())) {
                // A stop during start-up, while a server could not be reached (or the stream's lock was
                // held): the operator asked for exactly this end, and nothing was applied.
                log.info("stop requested during start-up ({}): nothing applied", failure.getMessage());
                status.stopped();
                return new Outcome(null, 0, 0, 0, 0, true);
            }
            status.failed(failure);
            metrics.error(failure.exitCode().name().toLowerCase(Locale.ROOT));
            throw e;
        }
    }

    /** Failures that a stop requested meanwhile turns into a stop: a server out of reach, the lock held. */
    private static boolean endsAStartThatWasStopped(ExitCode code) {
        return code == ExitCode.SOURCE_UNREACHABLE || code == ExitCode.TARGET_UNREACHABLE
            || code == ExitCode.APPLIER_RUNNING;
    }

    private Outcome apply(Until until) throws InterruptedException {
        long started = System.nanoTime();
        StateStore state = new StateStore(config.target().stateSchema(), config.name());
        // workers, the scheduler, the conflict monitor, the target watch, the schema watch, the control connection /
        // durability ... and the liveness thread's, and under workers: auto the governor's
        int poolSize = config.apply().workers() + 6 + (config.apply().workersAuto() ? 1 : 0)
            + (config.apply().readAheadRuns() ? config.apply().readAhead().connections() : 0);
        // workers: auto starts with one worker taking units; the others connect when first given one
        // (16 connections made while the JVM starts cost a first commit about 0.6 s later)
        int madeAtStart = config.apply().workersAuto() ? poolSize - config.apply().workers() + 1 : poolSize;
        try (TargetPool pool = TargetPool.open(config.target(), poolSize, madeAtStart, config.name())) {
            Liveness liveness = startLiveness(pool);
            try {
                return applyHoldingTheLock(until, started, pool, state);
            } catch (RuntimeException e) {
                ApplierException failure = ApplierException.of(e);
                if (!targetLost(failure)) {
                    putBackWhatACrashLeft(pool);
                }
                recordError(pool, state, failure);
                throw e;
            } finally {
                liveness.close();
                ApplierException lost = lockLost;
                if (lost != null) {
                    throw lost;
                }
            }
        }
    }

    /**
     * A run that fails puts back the flush settings a crashed run of this applier left relaxed (its saved
     * row), as its clean stop would have: a failure at start comes before the run's own durability does
     * (exit 12, 27, 33 …), and a target left relaxed until some later start succeeds (after a handback,
     * never) is what the saved row exists to prevent. The stream's lock is held here, so no other run of
     * this applier holds them; when the run itself relaxed them, its own stop has already put them back.
     */
    private void putBackWhatACrashLeft(TargetPool pool) {
        durability(pool).end();
    }

    /** This run's handle on the target's flush settings, reporting to the status and the metrics. */
    private Durability durability(TargetPool pool) {
        return new Durability(config.durability(), config.target().stateSchema(), config.name(), pool::get,
            new Durability.Listener() {
                @Override
                public void relaxed(boolean relaxed) {
                    status.flushRelaxed(relaxed);
                }

                @Override
                public void warning(String message) {
                    status.warning(message);
                    metrics.error("flush_settings");
                }
            });
    }

    /**
     * Takes the stream's lock and starts the liveness beat (before the position is read: a command
     * such as skip that holds the lock finishes first).
     */
    private Liveness startLiveness(TargetPool pool) {
        RunTable runs = new RunTable(config.target().stateSchema(), config.name());
        Liveness liveness = new Liveness(config.name(), runs, new StreamLock(config.target().stateSchema(),
            config.name()), new Liveness.Connections() {
                @Override
                public Connection get() throws SQLException {
                    return pool.get();
                }

                @Override
                public void discard(Connection c) {
                    pool.discard(c);
                    try {
                        c.close(); // the pool evicts the cut connection
                    } catch (SQLException ignored) {
                        // cut already
                    }
                }
            }, status::appliedPosition, e -> {
                lockLost = e;
                requestStop();
            });
        try {
            liveness.start();
        } catch (SQLException e) {
            throw TargetErrors.connect(e);
        }
        return liveness;
    }

    /**
     * Keeps the error that ends this run in {@code applier_run} (best effort: a target that cannot be
     * reached cannot keep it; the log has it anyway), with the failing transaction when known.
     */
    private void recordError(TargetPool pool, StateStore state, ApplierException e) {
        if (e.exitCode() == ExitCode.APPLIER_RUNNING || e.exitCode() == ExitCode.TARGET_ACCESS_DENIED
            || targetLost(e)) {
            return; // not this stream's error (another process runs it), or the target cannot keep it
        }
        try (Connection c = pool.get()) {
            SourcePosition saved = state.load(c).map(StateStore.Saved::position).orElse(null);
            new RunTable(config.target().stateSchema(), config.name()).recordError(c, e, saved);
        } catch (SQLException | RuntimeException failed) {
            log.warn("could not keep the last error on the target: {}", failed.toString());
        }
    }

    private Outcome applyHoldingTheLock(Until until, long started, TargetPool pool, StateStore state)
        throws InterruptedException {
        BinlogCoordinates untilAt;
        StateStore.Saved saved;
        boolean insertedNow = false;
        {
            CharsetResolver charsets;
            try (SourceInspector source = SourceInspector.connect(config.source());
                 Connection control = pool.get()) {
                source.requireRowFormat();
                sourceServerId = source.variable("server_id");
                NativeSqlThread.refuseIfApplyingOurSource(control, sourceServerId, config.source());
                status.tls(Side.SOURCE, source.tls());
                status.tls(Side.TARGET, io.binlogapplier.tls.SessionTls.describe(control));
                method = MethodResolver.resolve(config.apply().method(), source.version(), control,
                    config.target().user(), log::warn);
                if (method.auto()) {
                    log.info(method.logLine());
                }
                status.applyMethod(method);
                state.ensureTable(control);
                new DdlWitness(state.schema(), state.stream()).ensureTable(control);
                charsets = CharsetResolver.load(control);
                Optional<StateStore.Saved> existing = state.load(control);
                // the source whose binlog a saved file position is in (read once: checked, then recorded)
                Long recordedServerId = existing.isPresent() ? state.sourceServerId(control) : null;
                BinlogCoordinates sourceEnd = until instanceof Until.Current ? source.currentPosition()
                    : sourceEndOrNull(source);
                untilAt = until instanceof Until.Current ? sourceEnd
                    : until instanceof Until.At a ? a.coordinates() : null;
                if (until instanceof Until.Gtid g) {
                    requireGtidOfSourceKind(g.goal(), source);
                }
                if (existing.isPresent()) {
                    saved = existing.get();
                    NativeSqlThread.refuseIfNativeAppliedPast(control, sourceServerId, config.source(),
                        saved.position().coordinates());
                    log.info("resuming from {} (saved on the target){}", saved.position(),
                        saved.pending() == null ? "" : "; transaction at " + saved.pending().coordinates()
                            + " may be partly applied and will be replayed idempotently");
                    if (saved.position().resumeBy() == SourcePosition.ResumeBy.FILE) {
                        SourceIdentity.requireSame(recordedServerId, sourceServerId,
                            config.source().address(), saved.position());
                        source.requireFile(saved.position().coordinates());
                    }
                } else {
                    SourcePosition start = resolveStart(source, config.source().start()); // checks a file start
                    NativeSqlThread.refuseIfFreshStartMissesNative(control, sourceServerId, config.source(),
                        start.coordinates());
                    state.insertInitial(control, start);
                    insertedNow = true;
                    saved = new StateStore.Saved(start, null, 0, 0);
                    log.info("no saved position for '{}': starting at {} (source.start: {})", config.name(), start,
                        config.source().start());
                }
                SourceIdentity.record(state, control, recordedServerId, sourceServerId);
                status.positionLoaded(saved.position(), saved.sourceCommitMicros());
                targetStarted = StaleSessions.serverStarted(control);
                if (sourceEnd != null) {
                    metrics.sourceEnd(sourceEnd);
                }
            } catch (SQLException e) {
                throw TargetErrors.connect(e);
            }
            Durability durability = durability(pool);
            if (untilAt != null && saved.position().coordinates().atOrAfter(untilAt)) {
                log.info("already at {}: nothing to apply up to {}", saved.position(), untilAt);
                durability.end(); // settings a crashed run left relaxed
                return new Outcome(saved.position(), 0, 0, 0, elapsed(started), true);
            }
            GtidGoal untilGtid = until instanceof Until.Gtid g ? g.goal() : null;
            if (untilGtid != null && untilGtid.reachedBy(saved.position().gtids())) {
                log.info("already at {}: it holds {}", saved.position(), untilGtid);
                durability.end(); // settings a crashed run left relaxed
                return new Outcome(saved.position(), 0, 0, 0, elapsed(started), true);
            }
            return stream(pool, state, saved, untilAt, untilGtid, charsets, insertedNow, durability, started);
        }
    }

    /**
     * Runs pipelines until the until-position, a stop, a fatal failure, or a lost server that stayed
     * lost for more than its {@code reconnect_attempts}. A lost source or target ends a pipeline the
     * same way: what was in flight is rolled back (a lost source: what is complete still commits), the
     * backoff is waited out on the stop signal, the saved position is read again from the target and
     * a new pipeline starts from it.
     */
    private Outcome stream(TargetPool pool, StateStore state, StateStore.Saved saved, BinlogCoordinates untilAt,
                           GtidGoal untilGtid, CharsetResolver charsets, boolean insertedNow, Durability durability,
                           long started)
        throws InterruptedException {
        SourceEndPoller poller = new SourceEndPoller(config.name(), config.source(), metrics, SOURCE_END_POLL_MILLIS);
        try (poller; durability) {
            if (stop.requested()) {
                log.info("stop requested during start-up: nothing applied");
                return new Outcome(saved.position(), 0, 0, 0, elapsed(started), false);
            }
            poller.start();
            durability.begin(status::lagSeconds);
            TableSchemaCache schemas = new TableSchemaCache();
            long transactions = 0;
            long rows = 0;
            long units = 0;
            LossStreak sourceLosses = new LossStreak();
            LossStreak targetLosses = new LossStreak();
            while (true) {
                Pipeline p = new Pipeline(config.withApplyMethod(method.method()), pool, schemas, charsets, state,
                    metrics, faults, sourceServerId);
                current = p;
                if (stop.requested()) {
                    p.requestStop(); // requestStop() may have run before current was set
                }
                Pipeline.Result result;
                long pipelineStarted = System.nanoTime();
                try {
                    result = p.run(saved, untilAt, untilGtid, stopTimeoutMillis);
                } catch (ApplierException e) {
                    if (insertedNow && transactions + p.committed()[0] == 0
                        && e.exitCode() == ExitCode.SOURCE_POSITION_UNAVAILABLE) {
                        forgetStart(pool, state, saved.position());
                    }
                    if (!targetLost(e)) {
                        throw e;
                    }
                    long[] done = p.committed();
                    transactions += done[0];
                    rows += done[1];
                    units += done[2];
                    if (stop.requested()) {
                        // A stop, as in the reconnect wait: the target rolls back what was in flight, and
                        // the next start resumes from the position saved there.
                        log.info("stop requested; the target was lost meanwhile ({}): what was in flight is rolled"
                            + " back, the next start resumes from the position saved on the target", e.getMessage());
                        return new Outcome(p.lowWater(), transactions, rows, units, elapsed(started), false);
                    }
                    pipelineEnded(done[0] > 0, pipelineStarted, sourceLosses, targetLosses);
                    Optional<StateStore.Saved> back = reconnectTarget(pool, state, e, p.workerConnectionIds(),
                        targetLosses);
                    if (back.isEmpty()) {
                        return new Outcome(p.lowWater(), transactions, rows, units, elapsed(started), false);
                    }
                    saved = back.get();
                    durability.targetReconnected();
                    continue;
                }
                transactions += result.transactions();
                rows += result.rows();
                units += result.units();
                if (result.ending() != Pipeline.Ending.SOURCE_LOST || stop.requested()) {
                    return new Outcome(result.position(), transactions, rows, units, elapsed(started), false);
                }
                metrics.error("source_lost");
                ReconnectLimit limit = config.source().reconnectAttempts();
                pipelineEnded(result.transactions() > 0, pipelineStarted, sourceLosses, targetLosses);
                int losses = sourceLosses.nextAttempt();
                if (limit.exhaustedAfter(losses)) {
                    throw new ApplierException(ExitCode.SOURCE_UNREACHABLE, result.sourceLoss().getMessage()
                        + " (gave up after " + limit + " reconnects: source.reconnect_attempts)", result.sourceLoss());
                }
                status.reconnecting(Side.SOURCE, losses, result.sourceLoss().getMessage());
                metrics.reconnect("source");
                long backoff = backoffMillis(losses);
                log.info("reconnecting to the source in {} ms (attempt {} of {})", backoff, losses, limit);
                if (stop.await(backoff)) {
                    log.info("stop requested while waiting to reconnect");
                    return new Outcome(result.position(), transactions, rows, units, elapsed(started), false);
                }
                try (Connection control = pool.get()) {
                    saved = state.load(control).orElseThrow(this::stateRowVanished);
                } catch (SQLException e) {
                    ApplierException lost = TargetErrors.connect(e);
                    if (!targetLost(lost)) {
                        throw lost;
                    }
                    Optional<StateStore.Saved> back = reconnectTarget(pool, state, lost, new long[0], targetLosses);
                    if (back.isEmpty()) {
                        return new Outcome(result.position(), transactions, rows, units, elapsed(started), false);
                    }
                    saved = back.get();
                    durability.targetReconnected();
                }
            }
        }
    }

    /**
     * Waits for a lost target to come back: backoff on the stop signal, then a fresh pool, the
     * sessions the server may still keep for the lost workers killed, the saved position read again.
     *
     * @param stale target connection ids of the lost pipeline's workers
     * @param streak the reconnects made in a row so far ({@link LossStreak}), which this continues
     * @return the saved position to resume from; empty when a stop came first
     * @throws ApplierException a failure no reconnect can fix, or {@code target.reconnect_attempts} used up
     */
    private Optional<StateStore.Saved> reconnectTarget(TargetPool pool, StateStore state, ApplierException lost,
                                                       long[] stale, LossStreak streak) throws InterruptedException {
        ReconnectLimit limit = config.target().reconnectAttempts();
        metrics.error("target_lost");
        log.warn("{}", lost.getMessage());
        ApplierException why = lost;
        while (true) {
            int attempt = streak.nextAttempt();
            if (limit.exhaustedAfter(attempt)) {
                throw new ApplierException(ExitCode.TARGET_UNREACHABLE, why.getMessage() + " (gave up after " + limit
                    + " reconnects: target.reconnect_attempts)", why);
            }
            status.reconnecting(Side.TARGET, attempt, why.getMessage());
            metrics.reconnect("target");
            long backoff = backoffMillis(attempt);
            log.info("reconnecting to the target in {} ms (attempt {} of {})", backoff, attempt, limit);
            if (stop.await(backoff)) {
                log.info("stop requested while waiting to reconnect");
                return Optional.empty();
            }
            // On a thread of its own: a connect into a silent network takes target.connect_timeout,
            // and a stop must not wait for it.
            CompletableFuture<StateStore.Saved> reopened = CompletableFuture.supplyAsync(
                () -> reopenTarget(pool, state, stale), r -> {
                    Thread t = new Thread(r, "applier-" + config.name() + "-target-reconnect");
                    t.setDaemon(true);
                    t.start();
                });
            try {
                CompletableFuture.anyOf(reopened, stop.future()).get();
            } catch (ExecutionException ignored) {
                // the reconnect failed: judged below
            }
            if (!reopened.isDone()) {
                log.info("stop requested while reconnecting");
                return Optional.empty();
            }
            try {
                StateStore.Saved saved = reopened.join();
                log.info("reconnected to the target {} (attempt {}): resuming from {}", config.target().address(),
                    attempt, saved.position());
                return Optional.of(saved);
            } catch (CompletionException e) {
                ApplierException failure = ApplierException.of(e.getCause());
                if (!targetLost(failure)) {
                    throw failure;
                }
                why = failure;
            }
        }
    }

    private StateStore.Saved reopenTarget(TargetPool pool, StateStore state, long[] stale) {
        pool.renew();
        try (Connection control = pool.get()) {
            long startedAt = StaleSessions.serverStarted(control);
            if (StaleSessions.sameInstance(targetStarted, startedAt)) {
                StaleSessions.kill(control, config.target().user(), stale, stop);
            }
            targetStarted = startedAt;
            return state.load(control).orElseThrow(this::stateRowVanished);
        } catch (SQLException e) {
            throw TargetErrors.connect(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApplierException(ExitCode.INTERNAL, "interrupted while reconnecting to the target", e);
        }
    }

    private ApplierException stateRowVanished() {
        return new ApplierException(ExitCode.STATE_INVALID, "the state row '" + config.name()
            + "' vanished from the target while running");
    }

    /** A failure that a reconnect to the target may cure. */
    static boolean targetLost(ApplierException e) {
        return ErrorClassifier.classify(e, Side.TARGET).action() == Classification.Action.RECONNECT;
    }

    /** A pipeline started at {@code startedNanos} ended, whichever server it lost: both streaks hear of it. */
    private static void pipelineEnded(boolean committed, long startedNanos, LossStreak... streaks) {
        long ranMillis = (System.nanoTime() - startedNanos) / 1_000_000;
        for (LossStreak s : streaks) {
            s.pipelineEnded(committed, ranMillis);
        }
    }

    /**
     * The wait before reconnect {@code attempt} (1, 2 …): 0.5, 1, then 2 s for as long as it
     * takes, so a server that is back is found within about 2 s (plus a connect attempt under way),
     * and a server that stays away is asked once every 2 s or so: a connect costs it nothing worth
     * saving (a native replica waits 60 s: master_connect_retry). With a 4 s cap, partitions healed
     * in OutageIT resumed 5.8-5.9 s later.
     */
    static long backoffMillis(int attempt) {
        return 500L << Math.min(2, Math.max(0, attempt - 1));
    }

    /** The source's binlog end for the lag; null when it cannot be read (the poller says why, later). */
    private static BinlogCoordinates sourceEndOrNull(SourceInspector source) {
        try {
            return source.currentPosition();
        } catch (ApplierException e) {
            return null;
        }
    }

    /**
     * Removes the state row this start wrote, so that a corrected {@code source.start} is taken next
     * time; only while it still holds {@code inserted}: a row any unit has advanced stays.
     */
    private void forgetStart(TargetPool pool, StateStore state, SourcePosition inserted) {
        try (Connection c = pool.get()) {
            Optional<StateStore.Saved> now = state.load(c);
            if (now.isEmpty() || !now.get().position().coordinates().equals(inserted.coordinates())) {
                return;
            }
            state.delete(c);
        } catch (SQLException e) {
            log.warn("could not remove the state row written at this start: {}", e.toString());
        }
    }

    static SourcePosition resolveStart(SourceInspector source, StartPosition start) {
        if (start instanceof StartPosition.Current) {
            BinlogCoordinates at = source.currentPosition();
            return new SourcePosition(at, source.gtidPositionAt(at), SourcePosition.ResumeBy.FILE);
        }
        if (start instanceof StartPosition.File f) {
            source.requireFile(f.coordinates());
            source.requireTransactionStart(f.coordinates(), "source.start", ExitCode.CONFIG);
            return new SourcePosition(f.coordinates(), source.gtidPositionAt(f.coordinates()),
                SourcePosition.ResumeBy.FILE);
        }
        StartPosition.Gtid g = (StartPosition.Gtid) start;
        boolean mariadbGtid = io.binlogapplier.position.MariadbGtidPosition.looksLikeMariadb(g.gtids());
        if (mariadbGtid != source.mariadb()) {
            throw new ApplierException(ExitCode.CONFIG, "source.start '" + g.gtids() + "' is a "
                + (mariadbGtid ? "MariaDB" : "MySQL") + " GTID position but the source is "
                + (source.mariadb() ? "MariaDB" : "MySQL") + ": give a position of the source's kind");
        }
        // The file is filled in from the source's first ROTATE event.
        return new SourcePosition(new BinlogCoordinates("", 4), g.gtids(), SourcePosition.ResumeBy.GTID);
    }

    private static void requireGtidOfSourceKind(GtidGoal goal, SourceInspector source) {
        if (goal.mariadb() != source.mariadb()) {
            throw new ApplierException(ExitCode.USAGE, "--until '" + goal + "' is a "
                + (goal.mariadb() ? "MariaDB GTID position" : "MySQL GTID set") + " but the source is "
                + (source.mariadb() ? "MariaDB: give a GTID position such as 0-1-100" : "MySQL: give a GTID set such as"
                + " uuid:1-100") + ", a FILE:OFFSET or 'current'");
        }
        String sourceHas = source.variable(source.mariadb() ? "gtid_binlog_pos" : "gtid_executed");
        if (sourceHas != null && !goal.reachedBy(sourceHas.replace("\n", ""))) {
            log.info("the source has not written all of {} yet (it is at {}): applying until it has", goal,
                sourceHas.replace("\n", ""));
        }
    }

    /** Graceful stop: no more reading, commit what is complete, then {@link #run} returns. */
    public void requestStop() {
        stop.request();
        status.stopping();
        Pipeline p = current;
        if (p != null) {
            p.requestStop();
        }
    }

    private static long elapsed(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    static boolean transientSource(ApplierException e) {
        return SourceErrors.isTransient(e);
    }
}
