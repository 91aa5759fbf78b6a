package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.errors.Side;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.BinlogFileSize;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.transaction.Transaction;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One applier as an operator sees it: its state, its lag, where it is, the last thing that went
 * wrong. Fed by the pipeline (as a {@link PipelineMetrics}) and by {@link Applier}; read by the
 * health endpoint and by gauges. Thread-safe; the reporting methods are cheap enough for the hot path.
 *
 * <p><b>Lag</b> comes from source commit timestamps, never from the timestamp of the last event
 * seen (which is what makes {@code Seconds_Behind_Master} lie):
 * <ul>
 *   <li>0 when every transaction received has been committed on the target and the reader is at
 *       the source's binlog end (as a heartbeat or SHOW MASTER STATUS last said);</li>
 *   <li>otherwise, now minus the source commit time of the oldest transaction received but not yet
 *       committed on the target;</li>
 *   <li>with nothing received but the source's end beyond the reader (just after a start with a
 *       backlog, or while a large transaction streams in): now minus the later of the commit time of
 *       the last applied transaction (saved in the state row, so this holds on the first scrape after a
 *       restart) and the last moment the applier was known to be caught up.</li>
 *   <li>never 0 while the applier cannot know: with the source or the target lost (reconnecting) or
 *       the source silent (no word of its end for {@link #sourceSilentAfter}), it grows from the last
 *       moment it was known to be caught up, that is from the last heartbeat or event received. (A lost
 *       target may come back without its last commits, and the source's end read meanwhile says
 *       nothing of what the target holds.)</li>
 * </ul>
 * Never negative (the source's clock may run ahead of ours); unknown (NaN) until the applied
 * position and the source's end are known, or when no commit time is known yet.
 */
public final class ApplierStatus implements PipelineMetrics {
    /** Commit times remembered per stream at most: 32 MB. */
    static final int MAX_TRACKED = 1 << 22;

    /** What the applier is doing. */
    public enum State {
        /** Checking the servers, loading the position. */
        STARTING,
        /** Streaming and applying, behind the source. */
        APPLYING,
        /** Streaming, with lag 0. */
        CAUGHT_UP,
        /** The source or the target was lost; waiting to reconnect (see {@link #reconnect()}). */
        RECONNECTING,
        /** A graceful stop was requested: committing what is complete. */
        STOPPING,
        /** Stopped cleanly. */
        STOPPED,
        /** Stopped by an error (see {@link #lastError()}). */
        FAILED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Clock clock;
    private volatile State phase = State.STARTING;
    private volatile Stream stream;
    private volatile End sourceEnd;
    private volatile List<BinlogFileSize> sourceLogs = List.of();
    private final AtomicLong caughtUpMicros = new AtomicLong();
    private final AtomicLong appliedBefore = new AtomicLong();
    private volatile String lastError;
    private volatile Instant lastErrorAt;
    private volatile boolean flushRelaxed;
    private volatile MethodChoice applyMethod;
    private volatile Reconnect reconnect;
    private volatile long silentAfterMicros = 3_000_000;

    /** Which server was lost and the reconnect attempt under way (1, 2 …) in this outage. */
    public record Reconnect(Side side, int attempt) {
    }

    private volatile String sourceTls;
    private volatile String targetTls;

    public ApplierStatus(Clock clock) {
        this.clock = clock;
    }

    /** The source's binlog end as last seen, and when (µs since the epoch, our clock). */
    private record End(BinlogCoordinates at, long seenMicros) {
    }

    /** What is known of one stream (one pipeline). Commit times of received transactions, by their ordinal. */
    private static final class Stream {
        final PipelineProbe probe;
        final AtomicLongArray commitMicros;
        final int mask;
        /** Whole transactions received; written by the reader thread only. */
        volatile long received;
        volatile BinlogCoordinates readerAt;

        Stream(PipelineProbe probe) {
            this.probe = probe;
            int capacity = Integer.highestOneBit(Math.max(16, Math.min(MAX_TRACKED, probe.inFlightBound() + 1)) - 1) << 1;
            this.commitMicros = new AtomicLongArray(capacity);
            this.mask = capacity - 1;
            this.readerAt = probe.appliedPosition().coordinates();
        }
    }

    // ---- reported by the Applier

    /** The position was loaded from the target: lag can be judged from here on. */
    public void positionLoaded(SourcePosition position, long commitMicros) {
        stream = new Stream(new Resting(position, commitMicros));
    }

    /** {@code side} was lost and reconnect {@code attempt} of this outage is under way; {@code why}: the one-line reason. */
    public void reconnecting(Side side, int attempt, String why) {
        reconnect = new Reconnect(side, attempt);
        phase = State.RECONNECTING;
        warning(why);
    }

    /**
     * How long the source may be silent (no heartbeat, no event, no answer to SHOW MASTER STATUS)
     * before the applier stops calling itself caught up: a few heartbeat periods.
     */
    public void sourceSilentAfter(Duration silence) {
        silentAfterMicros = silence.toNanos() / 1_000;
    }

    public void stopping() {
        if (phase != State.FAILED) {
            phase = State.STOPPING;
        }
    }

    public void stopped() {
        if (phase != State.FAILED) {
            phase = State.STOPPED;
        }
    }

    public void failed(ApplierException e) {
        warning(e.getMessage());
        phase = State.FAILED;
    }

    /** Something went wrong that did not stop the applier. */
    public void warning(String message) {
        lastErrorAt = clock.instant();
        lastError = message;
    }

    /**
     * How the connections to {@code side} are secured, as the server reports it for one of them:
     * {@code TLSv1.3 TLS_AES_256_GCM_SHA384}, or empty for plain text.
     */
    public void tls(Side side, String description) {
        if (side == Side.SOURCE) {
            sourceTls = description;
        } else {
            targetTls = description;
        }
    }

    /** As reported by {@link #tls(Side, String)}; null before the first connection. */
    public String tls(Side side) {
        return side == Side.SOURCE ? sourceTls : targetTls;
    }

    public void flushRelaxed(boolean relaxed) {
        flushRelaxed = relaxed;
    }

    /** The apply method this run uses (what {@code apply.method: auto} resolved to, or the configured one). */
    public void applyMethod(MethodChoice choice) {
        applyMethod = choice;
    }

    // ---- reported by the pipeline

    @Override
    public void streamStarted(PipelineProbe probe) {
        Stream previous = stream;
        if (previous != null) {
            appliedBefore.addAndGet(previous.probe.appliedTransactions());
        }
        stream = new Stream(probe);
        Reconnect r = reconnect;
        // A new stream means the target answered; the source has answered only once the stream says something.
        if (phase == State.STARTING || phase == State.RECONNECTING && r != null && r.side() == Side.TARGET) {
            backToApplying();
        }
    }

    private void backToApplying() {
        reconnect = null;
        phase = State.APPLYING;
    }

    /** The source or the target is lost: reconnecting to it. */
    private boolean reconnecting() {
        return phase == State.RECONNECTING;
    }

    private boolean sourceLost() {
        Reconnect r = reconnect;
        return phase == State.RECONNECTING && r != null && r.side() == Side.SOURCE;
    }

    @Override
    public void unitCommitted(int transactions, long rows, long bytes) {
        Stream s = stream;
        if (s != null) {
            notAhead(s.probe.appliedCommitMicros(), nowMicros()); // a future stamp counts from now, not from a later scrape
        }
    }

    @Override
    public void received(Transaction part) {
        if (!part.lastPart()) {
            return;
        }
        Stream s = stream;
        if (s == null) {
            return;
        }
        long n = s.received;
        s.commitMicros.set((int) (n & s.mask), part.end().commitMicros());
        s.received = n + 1;
    }

    @Override
    public void readerAt(BinlogCoordinates position) {
        Stream s = stream;
        if (s != null) {
            s.readerAt = position;
        }
        if (sourceLost()) {
            backToApplying(); // the new stream delivered a heartbeat or a transaction
        }
    }

    @Override
    public void sourceEnd(BinlogCoordinates end) {
        End e = new End(end, nowMicros());
        sourceEnd = e;
        Stream s = stream;
        // While a server is lost, the end read on another connection does not make the applier caught up.
        if (s != null && !reconnecting() && s.received <= s.probe.appliedTransactions()) {
            caughtUp(s, e);
        }
    }

    @Override
    public void sourceLogs(List<BinlogFileSize> files) {
        sourceLogs = List.copyOf(files);
    }

    // ---- read by health and gauges

    /**
     * Bytes of source binlog after the applied position, as {@code status} counts them (across files
     * by the sizes SHOW BINARY LOGS gave): 0 when caught up; -1 while unknown.
     */
    public long bytesBehind() {
        if (state() == State.CAUGHT_UP) {
            return 0;
        }
        SourcePosition applied = appliedPosition();
        BinlogCoordinates end = sourceEnd();
        // The end is read once a second, and under steady load the reader (and what is applied) passes it
        // between two readings: the reader's place is then the better end (it read 0 bytes while behind).
        BinlogCoordinates reader = readerPosition();
        if (reader != null && (end == null || reader.compareTo(end) > 0)) {
            end = reader;
        }
        return applied == null ? -1 : BinlogFileSize.bytesBetween(applied.coordinates(), end, sourceLogs);
    }

    /** The lag in seconds (see the class comment); NaN while unknown. */
    public double lagSeconds() {
        long micros = lagMicros();
        return micros < 0 ? Double.NaN : micros / 1e6;
    }

    /** The lag in microseconds; -1 while unknown. */
    public long lagMicros() {
        Stream s = stream;
        End e = sourceEnd;
        if (s == null) {
            return -1;
        }
        long now = nowMicros();
        long applied = s.probe.appliedTransactions();
        long received = s.received;
        if (received > applied) {
            // Overflow (more in flight than the bound, which should not happen): the oldest still remembered.
            long oldest = Math.max(applied, received - s.commitMicros.length());
            long commit = s.commitMicros.get((int) (oldest & s.mask));
            if (commit > 0) {
                return Math.max(0, now - commit);
            }
        } else if (e == null) {
            return -1;
        } else if (heard(e, now) && caughtUp(s, e)) {
            return 0;
        }
        long base = Math.max(notAhead(s.probe.appliedCommitMicros(), now), caughtUpMicros.get());
        return base <= 0 ? -1 : Math.max(0, now - base);
    }

    /** The future-stamped applied commit time last seen, and our time when it was first seen. */
    private final AtomicLong aheadCommit = new AtomicLong();
    private final AtomicLong aheadSeenAt = new AtomicLong();

    /**
     * The applied commit time, unless it is ahead of our clock (a source clock ahead of ours, or a
     * session's {@code SET timestamp} into the future): then the time we first saw it applied. Taken as
     * it is, such a time made the lag read 0 for as long as it stayed ahead: through a whole outage after
     * a transaction stamped an hour ahead.
     */
    private long notAhead(long commit, long now) {
        if (commit <= now) {
            return commit;
        }
        if (aheadCommit.getAndSet(commit) != commit) {
            aheadSeenAt.set(now);
        }
        return aheadSeenAt.get();
    }

    /** The source's end {@code e} is recent news: the source was heard from lately and the stream is not lost. */
    private boolean heard(End e, long nowMicros) {
        return !reconnecting() && nowMicros - e.seenMicros() <= silentAfterMicros;
    }

    /** The reader is at the source's end: everything the source had when {@code e} was seen is applied. */
    private boolean caughtUp(Stream s, End e) {
        BinlogCoordinates at = s.readerAt;
        if (at == null || !at.atOrAfter(e.at())) {
            return false;
        }
        caughtUpMicros.accumulateAndGet(e.seenMicros(), Math::max);
        return true;
    }

    /** The state; {@link State#CAUGHT_UP} while applying with nothing pending and the reader at the source's end. */
    public State state() {
        State p = phase;
        if (p != State.APPLYING) {
            return p;
        }
        Stream s = stream;
        End e = sourceEnd;
        boolean caughtUp = s != null && e != null && s.received <= s.probe.appliedTransactions()
            && heard(e, nowMicros()) && caughtUp(s, e);
        return caughtUp ? State.CAUGHT_UP : p;
    }

    /** The applied position (the low-water mark); null before it was loaded. */
    public SourcePosition appliedPosition() {
        Stream s = stream;
        return s == null ? null : s.probe.appliedPosition();
    }

    /** Source commit time of the last applied transaction, µs since the epoch; 0 when unknown. */
    public long appliedCommitMicros() {
        Stream s = stream;
        return s == null ? 0 : s.probe.appliedCommitMicros();
    }

    /** Transactions applied since this process started. */
    public long appliedTransactions() {
        Stream s = stream;
        return appliedBefore.get() + (s == null ? 0 : s.probe.appliedTransactions());
    }

    /** Where the reader is (between transactions); null before the position was loaded. */
    public BinlogCoordinates readerPosition() {
        Stream s = stream;
        return s == null ? null : s.readerAt;
    }

    /** The source's binlog end as last seen; null when not seen yet. */
    public BinlogCoordinates sourceEnd() {
        End e = sourceEnd;
        return e == null ? null : e.at();
    }

    public long ringEntries() {
        Stream s = stream;
        return s == null ? 0 : s.probe.ringEntries();
    }

    public long ringBytes() {
        Stream s = stream;
        return s == null ? 0 : s.probe.ringBytes();
    }

    public int busyWorkers() {
        Stream s = stream;
        return s == null ? 0 : s.probe.busyWorkers();
    }

    /** Workers that take new units (fewer than configured while {@code workers: auto} finds no need); 0: not streaming. */
    public int activeWorkers() {
        Stream s = stream;
        return s == null ? 0 : s.probe.activeWorkers();
    }

    public boolean flushRelaxed() {
        return flushRelaxed;
    }

    /** The lost server and the reconnect attempt while {@link State#RECONNECTING}; null otherwise. */
    public Reconnect reconnect() {
        return phase == State.RECONNECTING ? reconnect : null;
    }

    /** The apply method in use and whether {@code auto} chose it; null until the start has decided. */
    public MethodChoice applyMethod() {
        return applyMethod;
    }

    /** The last error or warning, one line; null when none. */
    public String lastError() {
        return lastError;
    }

    public Instant lastErrorAt() {
        return lastErrorAt;
    }

    private long nowMicros() {
        Instant i = clock.instant();
        return i.getEpochSecond() * 1_000_000L + i.getNano() / 1_000;
    }

    /** Before a pipeline runs: the loaded position, nothing in flight. */
    private record Resting(SourcePosition position, long commitMicros) implements PipelineProbe {
        @Override
        public long ringEntries() {
            return 0;
        }

        @Override
        public long ringBytes() {
            return 0;
        }

        @Override
        public int busyWorkers() {
            return 0;
        }

        @Override
        public int workers() {
            return 0;
        }

        @Override
        public long appliedTransactions() {
            return 0;
        }

        @Override
        public SourcePosition appliedPosition() {
            return position;
        }

        @Override
        public long appliedCommitMicros() {
            return commitMicros;
        }

        @Override
        public int inFlightBound() {
            return 0;
        }
    }
}
