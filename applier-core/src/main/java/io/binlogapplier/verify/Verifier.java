package io.binlogapplier.verify;

import io.binlogapplier.config.VerifyConfig;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.StateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Compares applied tables chunk by chunk (docs/verify.md). Each chunk is compared by an {@link Attempt}:
 * source, target, source again, each in a short consistent snapshot; it matches when the target holds
 * what the source held at one of the two snapshots. Any other chunk is compared the same way row by
 * row: a row differs when a stable source row and an applier past the first snapshot disagree twice,
 * and stays unverified when it kept changing or the applier never reached the source's snapshot.
 * The source's writes never stop; verify reads only. One thread.
 */
public final class Verifier {
    private static final Logger log = LoggerFactory.getLogger(Verifier.class);
    /** The applier's position has not moved for this long: it is stopped (or has nothing to apply). */
    private static final long STALL_NANOS = 3_000_000_000L;
    private static final int MAX_ROWS_LISTED = 10;
    private static final int MAX_CHUNKS_LISTED = 20;

    private final Connection target;
    private final ServerReads reads;
    private final VerifyConfig config;
    private final Throttle throttle;
    /** The position at which the applier was last found not to move; null while it moves. */
    private BinlogCoordinates stalledAt;
    private boolean stalled;

    public Verifier(Connection source, boolean mariadbSource, Connection target, StateStore state, VerifyConfig config)
        throws SQLException {
        this.target = target;
        this.reads = new ServerReads(source, mariadbSource, target, state);
        this.config = config;
        this.throttle = new Throttle(config.rowsPerSecond());
    }

    /** The applier's saved position now; null when the target has no state row for it. */
    public BinlogCoordinates applied() throws SQLException {
        return reads.applied();
    }

    /**
     * Compares one table. A server error about this table (a column the target lacks, a privilege)
     * makes it UNVERIFIED; a lost connection (SQLSTATE 08) is thrown.
     */
    public TableResult verify(TableShape t) throws InterruptedException, SQLException {
        if (!AppliedTables.exists(target, t.targetSchema(), t.table())) {
            return new TableResult(t.sourceName(), t.targetName(), 0, 0, TableResult.Result.DIFFERS,
                "no table " + t.targetName() + " on the target", List.of("table missing on the target"));
        }
        long rows = 0;
        int chunks = 0;
        List<String> differences = new ArrayList<>();
        int differing = 0;
        int unverified = 0;
        String unverifiedWhy = null;
        try {
            List<Object> after = null;
            while (true) {
                List<Object> upTo = t.chunked() ? reads.nextBoundary(t, after, config.chunkRows()) : null;
                ChunkRange range = t.chunked() ? new ChunkRange(after, upTo) : ChunkRange.WHOLE;
                Outcome o = chunk(t, range);
                chunks++;
                rows += o.rows;
                if (o.verdict == TableResult.Result.DIFFERS) {
                    differing++;
                    if (differences.size() < MAX_CHUNKS_LISTED) {
                        differences.add(o.detail);
                    }
                } else if (o.verdict == TableResult.Result.UNVERIFIED) {
                    unverified++;
                    if (unverifiedWhy == null) {
                        unverifiedWhy = range.describe(t.key()) + ": " + o.detail;
                    }
                }
                if (upTo == null) {
                    break;
                }
                after = upTo;
            }
        } catch (SQLException e) {
            if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
                throw e;
            }
            // Differences found before the error stand: they are what the operator must act on (exit 38).
            return new TableResult(t.sourceName(), t.targetName(), rows, chunks, differing > 0
                ? TableResult.Result.DIFFERS : TableResult.Result.UNVERIFIED, (differing > 0 ? differing
                + " chunks differ before it could not be read further: " : "cannot read it: ") + e.getMessage(),
                differences);
        }
        if (differing > MAX_CHUNKS_LISTED) {
            differences.add("... and " + (differing - MAX_CHUNKS_LISTED) + " more chunks");
        }
        TableResult.Result result = differing > 0 ? TableResult.Result.DIFFERS
            : unverified > 0 ? TableResult.Result.UNVERIFIED : TableResult.Result.MATCH;
        String reason = switch (result) {
            case MATCH -> "";
            case DIFFERS -> differing + " of " + chunks + " chunks differ"
                + (unverified > 0 ? ", " + unverified + " unverified" : "");
            case UNVERIFIED -> unverified + " of " + chunks + " chunks unverified; first: " + unverifiedWhy;
        };
        log.info("verify {} → {}: {} rows, {} chunks, {}{}", t.sourceName(), t.targetName(), rows, chunks, result,
            reason.isEmpty() ? "" : " (" + reason + ")");
        return new TableResult(t.sourceName(), t.targetName(), rows, chunks, result, reason, differences);
    }

    private record Outcome(TableResult.Result verdict, long rows, String detail) {
    }

    /**
     * One chunk: a checksum attempt first, which settles a quiet chunk that matches in three cheap
     * reads. Otherwise a keyed chunk is compared row by row ({@link #byRow}), so that a few rows the
     * source keeps writing do not keep the rest of the chunk from a verdict; a keyless one is retried whole.
     */
    private Outcome chunk(TableShape t, ChunkRange range) throws SQLException, InterruptedException {
        Attempt a = attempt(t, range);
        if (a.verdict() == Attempt.Verdict.MATCH) {
            return new Outcome(TableResult.Result.MATCH, a.before().rows(), "");
        }
        return t.chunked() ? byRow(t, range) : whole(t, range, a);
    }

    /** A keyless table, one chunk: checksum attempts until a verdict, a difference seen twice. */
    private Outcome whole(TableShape t, ChunkRange range, Attempt first) throws SQLException, InterruptedException {
        Attempt a = first;
        int differs = 0;
        for (int i = 1; ; i++) {
            switch (a.verdict()) {
                case MATCH -> {
                    return new Outcome(TableResult.Result.MATCH, a.before().rows(), "");
                }
                case DIFFERS -> {
                    if (++differs >= 2) {
                        return new Outcome(TableResult.Result.DIFFERS, a.before().rows(), range.describe(t.key())
                            + ": differs (" + a.before().rows() + " rows on the source, " + a.target().rows()
                            + " on the target)");
                    }
                }
                case BEHIND -> {
                    if (stalled) {
                        return new Outcome(TableResult.Result.UNVERIFIED, a.before().rows(),
                            behind(a.applied(), a.sourceBefore()));
                    }
                }
                case CHANGING -> { }
            }
            if (i >= config.attempts()) {
                break;
            }
            Thread.sleep(Math.min(100L << i, 2_000));
            a = attempt(t, range);
        }
        String why = switch (a.verdict()) {
            case BEHIND -> behind(a.applied(), a.sourceBefore());
            case DIFFERS -> "differed once, then could not be compared again (its rows kept changing)";
            default -> "its rows changed on the source during each of " + config.attempts() + " attempts;"
                + " verify again when the writes to them slow down";
        };
        return new Outcome(TableResult.Result.UNVERIFIED, a.before().rows(), why);
    }

    private String behind(BinlogCoordinates applied, BinlogCoordinates source) {
        return "differs, but the applier (at " + (applied == null ? "no saved position" : applied)
            + ") has not reached the source (" + source + "), which may have changed these rows since:"
            + " run verify while the applier runs, or when the source has no writes";
    }

    /**
     * A keyed chunk row by row: the key and MD5 of each row, read as in {@link Attempt} (source,
     * target, source). A row matches when the target holds what the source held in either read; it
     * differs when both source reads agree, the applier had reached the first, and the target does
     * not, twice; rows without a verdict are read again (the whole range, cheaply) up to
     * {@code attempts} times.
     */
    private Outcome byRow(TableShape t, ChunkRange range) throws SQLException, InterruptedException {
        String name = t.key().size() == 1 ? t.key().get(0) : "(" + String.join(",", t.key()) + ")";
        Map<String, Integer> differsSeen = new HashMap<>();
        List<String> differing = new ArrayList<>();
        Set<String> pending = null;
        long rows = 0;
        boolean behind = false;
        BinlogCoordinates applied = null;
        BinlogCoordinates sourceAt = null;
        for (int i = 0; i < config.attempts(); i++) {
            if (i > 0) {
                Thread.sleep(Math.min(100L << i, 2_000));
            }
            ServerReads.Read<Map<String, String>> before = reads.sourceRows(t, range);
            throttle.read(before.value().size());
            awaitApplied(before.at());
            ServerReads.Read<Map<String, String>> onTarget = reads.targetRows(t, range);
            ServerReads.Read<Map<String, String>> after = reads.sourceRows(t, range);
            throttle.read(after.value().size());
            rows = before.value().size();
            applied = onTarget.at();
            sourceAt = before.at();
            behind = applied == null || !applied.atOrAfter(sourceAt);
            Set<String> keys = pending;
            if (keys == null) {
                keys = new LinkedHashSet<>(before.value().keySet());
                keys.addAll(onTarget.value().keySet());
                keys.addAll(after.value().keySet());
            }
            Set<String> still = new LinkedHashSet<>();
            for (String k : keys) {
                String s1 = before.value().get(k);
                String s2 = after.value().get(k);
                String tg = onTarget.value().get(k);
                if (Objects.equals(tg, s1) || Objects.equals(tg, s2)) {
                    continue;
                }
                if (Objects.equals(s1, s2) && !behind && differsSeen.merge(k, 1, Integer::sum) >= 2) {
                    differing.add(name + "=" + k + (s1 == null ? " extra on the target"
                        : tg == null ? " missing on the target"
                        : ServerReads.DUPLICATE.equals(tg) ? " duplicated on the target" : " changed"));
                    continue;
                }
                still.add(k);
            }
            pending = still;
            if (pending.isEmpty() || (behind && stalled)) {
                break;
            }
        }
        String where = range.describe(t.key());
        String open = pending.isEmpty() ? "" : pending.size() + (pending.size() == 1 ? " row" : " rows") + " ("
            + name + "=" + pending.iterator().next() + (pending.size() > 1 ? ", ..." : "") + ") "
            + (behind ? behind(applied, sourceAt) : "changed on the source during each of " + config.attempts()
            + " attempts; verify again when the writes to them slow down");
        if (!differing.isEmpty()) {
            String listed = String.join(", ", differing.subList(0, Math.min(differing.size(), MAX_ROWS_LISTED)));
            return new Outcome(TableResult.Result.DIFFERS, rows, where + ": " + differing.size()
                + (differing.size() == 1 ? " row differs: " : " rows differ: ") + listed
                + (differing.size() > MAX_ROWS_LISTED ? ", ..." : "") + (open.isEmpty() ? "" : "; and " + open));
        }
        if (!pending.isEmpty()) {
            return new Outcome(TableResult.Result.UNVERIFIED, rows, open);
        }
        return new Outcome(TableResult.Result.MATCH, rows, "");
    }

    private Attempt attempt(TableShape t, ChunkRange range) throws SQLException, InterruptedException {
        ServerReads.Read<Checksum> before = reads.sourceChecksum(t, range);
        throttle.read(before.value().rows());
        awaitApplied(before.at());
        ServerReads.Read<Checksum> onTarget = reads.targetChecksum(t, range);
        Checksum after = before.value();
        if (!onTarget.value().equals(before.value())) {
            after = reads.sourceChecksum(t, range).value();
            throttle.read(after.rows());
        }
        return new Attempt(before.at(), before.value(), onTarget.at(), onTarget.value(), after);
    }

    /**
     * Waits until the applier's saved position is at or past {@code goal}; returns early when it does
     * not move for {@link #STALL_NANOS} (stopped, or nothing of the source's to apply) or after the
     * catch-up timeout. An applier once found not moving is not waited for again until it moves.
     */
    private void awaitApplied(BinlogCoordinates goal) throws SQLException, InterruptedException {
        BinlogCoordinates at = reads.applied();
        if (at != null && at.atOrAfter(goal)) {
            stalled = false;
            return;
        }
        if (stalled && Objects.equals(at, stalledAt)) {
            return;
        }
        long start = System.nanoTime();
        long moved = start;
        BinlogCoordinates seen = at;
        while (true) {
            Thread.sleep(50);
            at = reads.applied();
            long now = System.nanoTime();
            if (at != null && at.atOrAfter(goal)) {
                stalled = false;
                return;
            }
            if (!Objects.equals(at, seen)) {
                seen = at;
                moved = now;
            }
            if (now - moved > STALL_NANOS || now - start > config.catchUpTimeout().toNanos()) {
                stalled = true;
                stalledAt = at;
                log.info("the applier is at {} and did not reach {}: comparing without waiting", at, goal);
                return;
            }
        }
    }
}
