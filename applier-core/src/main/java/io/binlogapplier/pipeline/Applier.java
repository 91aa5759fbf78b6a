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
import io.binlogapplier.config.StartPosition;
import io.binlogapplier.durability.Durability;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;

/**
 * Runs one applier: checks the source, finds where to start (the target's state row, else
 * {@code source.start}), and runs pipelines until the until-position, a stop request or a fatal
 * error; a lost source is reconnected, from the committed position, a bounded number of times.
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

    /** What a run achieved. */
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
    private final StopSignal stop = new StopSignal();
    private final Faults faults;

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
            status.failed(failure);
            metrics.error(failure.exitCode().name().toLowerCase(Locale.ROOT));
            throw e;
        }
    }

    private Outcome apply(Until until) throws InterruptedException {
        long started = System.nanoTime();
        StateStore state = new StateStore(config.target().stateSchema(), config.name());
        BinlogCoordinates untilAt;
        StateStore.Saved saved;
        boolean insertedNow = false;
        // workers, the scheduler, the conflict monitor, the control connection / durability
        try (TargetPool pool = TargetPool.open(config.target(), config.apply().workers() + 3, config.name())) {
            CharsetResolver charsets;
            try (SourceInspector source = SourceInspector.connect(config.source());
                 Connection control = pool.get()) {
                source.requireRowFormat();
                method = MethodResolver.resolve(config.apply().method(), source.version(), control,
                    config.target().user());
                if (method.auto()) {
                    log.info(method.logLine());
                }
                status.applyMethod(method);
                state.ensureTable(control);
                charsets = CharsetResolver.load(control);
                Optional<StateStore.Saved> existing = state.load(control);
                BinlogCoordinates sourceEnd = until instanceof Until.Current ? source.currentPosition()
                    : sourceEndOrNull(source);
                untilAt = until instanceof Until.Current ? sourceEnd
                    : until instanceof Until.At a ? a.coordinates() : null;
                if (until instanceof Until.Gtid g) {
                    requireGtidOfSourceKind(g.goal(), source);
                }
                if (existing.isPresent()) {
                    saved = existing.get();
                    log.info("resuming from {} (saved on the target){}", saved.position(),
                        saved.pending() == null ? "" : "; transaction at " + saved.pending().coordinates()
                            + " may be partly applied and will be replayed idempotently");
                    if (saved.position().resumeBy() == SourcePosition.ResumeBy.FILE) {
                        source.requireFile(saved.position().coordinates());
                    }
                } else {
                    SourcePosition start = resolveStart(source, config.source().start());
                    if (start.resumeBy() == SourcePosition.ResumeBy.FILE) {
                        source.requireFile(start.coordinates());
                    }
                    state.insertInitial(control, start);
                    insertedNow = true;
                    saved = new StateStore.Saved(start, null, 0, 0);
                    log.info("no saved position for '{}': starting at {} (source.start: {})", config.name(), start,
                        config.source().start());
                }
                status.positionLoaded(saved.position(), saved.sourceCommitMicros());
                if (sourceEnd != null) {
                    metrics.sourceEnd(sourceEnd);
                }
            } catch (SQLException e) {
                throw TargetErrors.connect(e);
            }
            Durability durability = new Durability(config.durability(), config.target().stateSchema(), config.name(),
                pool::get, new Durability.Listener() {
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

    /** Runs pipelines until the until-position, a stop, a failure, or too many lost sources. */
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
            int losses = 0;
            while (true) {
                Pipeline p = new Pipeline(config.withApplyMethod(method.method()), pool, schemas, charsets, state,
                    metrics, faults);
                current = p;
                if (stop.requested()) {
                    p.requestStop(); // requestStop() may have run before current was set
                }
                Pipeline.Result result;
                try {
                    result = p.run(saved, untilAt, untilGtid, stopTimeoutMillis);
                } catch (ApplierException e) {
                    if (insertedNow && transactions == 0 && e.exitCode() == ExitCode.SOURCE_POSITION_UNAVAILABLE) {
                        forgetStart(pool, state);
                    }
                    throw e;
                }
                transactions += result.transactions();
                rows += result.rows();
                units += result.units();
                if (result.transactions() > 0) {
                    losses = 0;
                }
                if (result.ending() != Pipeline.Ending.SOURCE_LOST || stop.requested()) {
                    return new Outcome(result.position(), transactions, rows, units, elapsed(started), false);
                }
                metrics.error("source_lost");
                if (++losses > config.source().reconnectAttempts()) {
                    throw new ApplierException(ExitCode.SOURCE_UNREACHABLE, result.sourceLoss().getMessage()
                        + " (gave up after " + config.source().reconnectAttempts() + " reconnects)",
                        result.sourceLoss());
                }
                status.reconnecting(result.sourceLoss().getMessage());
                long backoff = Math.min(30_000, 500L << Math.min(6, losses - 1));
                log.info("reconnecting to the source in {} ms (attempt {} of {})", backoff, losses,
                    config.source().reconnectAttempts());
                if (stop.await(backoff)) {
                    log.info("stop requested while waiting to reconnect");
                    return new Outcome(result.position(), transactions, rows, units, elapsed(started), false);
                }
                try (Connection control = pool.get()) {
                    saved = state.load(control).orElseThrow(() -> new ApplierException(ExitCode.STATE_INVALID,
                        "the state row '" + config.name() + "' vanished from the target while running"));
                } catch (SQLException e) {
                    throw TargetErrors.connect(e);
                }
            }
        }
    }

    /** The source's binlog end for the lag; null when it cannot be read (the poller says why, later). */
    private static BinlogCoordinates sourceEndOrNull(SourceInspector source) {
        try {
            return source.currentPosition();
        } catch (ApplierException e) {
            return null;
        }
    }

    private void forgetStart(TargetPool pool, StateStore state) {
        try (Connection c = pool.get()) {
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
