package io.binlogapplier.server.status;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.position.MariadbGtidPosition;
import io.binlogapplier.position.SourceIdentity;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.status.LastError;
import io.binlogapplier.status.RunTable;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code binlog-applier status} shows: the target's state row set against the source's binlog
 * end. Pure: built from values read elsewhere, with the time passed in.
 *
 * <p>Lag here is measured from outside a running applier, so it can only be an upper bound of the
 * live lag (which counts from the oldest transaction not applied yet): when the source has written
 * past the saved position, now minus the source commit time of the last applied transaction; 0 when
 * the source has nothing the target lacks.
 *
 * @param saved the state row, or null when there is none ("never started")
 * @param updatedAt when the state row last changed (target clock), or null
 * @param source the source's side, or null when it could not be read
 * @param savedServerId the source {@code server_id} recorded with the position (whose binlog a file position is
 *     in), or null when none is recorded
 */
public record StatusReport(String name, String stateTable, String target, StateStore.Saved saved, Instant updatedAt,
                           Source source, Instant now, RunTable.Process process, LastError lastError,
                           String targetTls, Long savedServerId) {

    /** Without the recorded source {@code server_id}. */
    public StatusReport(String name, String stateTable, String target, StateStore.Saved saved, Instant updatedAt,
                        Source source, Instant now, RunTable.Process process, LastError lastError,
                        String targetTls) {
        this(name, stateTable, target, saved, updatedAt, source, now, process, lastError, targetTls, null);
    }

    /** Without what {@code applier_run} says (no process seen, no error kept) and the target's TLS. */
    public StatusReport(String name, String stateTable, String target, StateStore.Saved saved, Instant updatedAt,
                        Source source, Instant now) {
        this(name, stateTable, target, saved, updatedAt, source, now, null, null, null);
    }

    /** Without the target connection's TLS. */
    public StatusReport(String name, String stateTable, String target, StateStore.Saved saved, Instant updatedAt,
                        Source source, Instant now, RunTable.Process process, LastError lastError) {
        this(name, stateTable, target, saved, updatedAt, source, now, process, lastError, null);
    }

    /** Without what {@code applier_run} says. */
    public StatusReport(String name, String stateTable, String target, StateStore.Saved saved, Instant updatedAt,
                        Source source, Instant now, String targetTls) {
        this(name, stateTable, target, saved, updatedAt, source, now, null, null, targetTls);
    }

    /** An applier process holds the stream's lock now. */
    public boolean running() {
        return process != null && process.running();
    }

    /**
     * @param end where the source's binlog ends now
     * @param gtids the source's GTID position ({@code gtid_binlog_pos} / {@code gtid_executed}), may be empty
     * @param logs the source's binlog files and sizes, oldest first (null when it may not list them)
     * @param tls the TLS version and cipher of a session made as source.tls says ("" plain text, null unknown)
     * @param serverId the source's {@code server_id}, or null when unknown
     */
    public record Source(String address, BinlogCoordinates end, String gtids, List<BinlogFile> logs, String tls,
                         Long serverId) {
        public Source(String address, BinlogCoordinates end, String gtids, List<BinlogFile> logs) {
            this(address, end, gtids, logs, null, null);
        }

        public Source(String address, BinlogCoordinates end, String gtids, List<BinlogFile> logs, String tls) {
            this(address, end, gtids, logs, tls, null);
        }
    }

    /**
     * The next run resumes by file position from another server's binlog than the source's now (a failover
     * behind its address): it stops with exit 19 ({@code SOURCE_CHANGED}) before applying anything.
     */
    public boolean sourceChanged() {
        return saved != null && source != null && saved.position().resumeBy() == SourcePosition.ResumeBy.FILE
            && SourceIdentity.differs(savedServerId, source.serverId());
    }

    public record BinlogFile(String name, long size) {
    }

    public boolean started() {
        return saved != null;
    }

    /** The source has nothing the target lacks; null when unknown (no source, or never started). */
    public Boolean caughtUp() {
        if (saved == null || source == null) {
            return null;
        }
        String have = saved.position().gtids();
        String sourceHas = source.gtids() == null ? "" : source.gtids().trim();
        if (!sourceHas.isEmpty() && !have.isEmpty()
            && MariadbGtidPosition.looksLikeMariadb(sourceHas) == MariadbGtidPosition.looksLikeMariadb(have)) {
            // By GTID: the file position may trail the end by events that are no transactions (rotations).
            try {
                return GtidGoal.parse(sourceHas).reachedBy(have);
            } catch (IllegalArgumentException e) {
                // not comparable: by file position below
            }
        }
        BinlogCoordinates at = saved.position().coordinates();
        return !at.file().isEmpty() && at.atOrAfter(source.end());
    }

    /** Bytes of source binlog after the saved position; null when unknown. */
    public Long bytesBehind() {
        Boolean caught = caughtUp();
        if (caught == null) {
            return null;
        }
        if (caught) {
            return 0L;
        }
        BinlogCoordinates at = saved.position().coordinates();
        BinlogCoordinates end = source.end();
        if (at.file().equals(end.file())) {
            return Math.max(0, end.offset() - at.offset());
        }
        if (source.logs() == null) {
            return null;
        }
        long bytes = 0;
        boolean counting = false;
        for (BinlogFile f : source.logs()) {
            if (f.name().equals(at.file())) {
                counting = true;
                bytes += Math.max(0, f.size() - at.offset());
            } else if (f.name().equals(end.file())) {
                return counting ? bytes + end.offset() : null;
            } else if (counting) {
                bytes += f.size();
            }
        }
        return null; // the saved file is no longer on the source
    }

    /** The source commit time of the last applied transaction; null when none was applied. */
    public Instant lastCommit() {
        if (saved == null || saved.sourceCommitMicros() <= 0) {
            return null;
        }
        return Instant.EPOCH.plus(saved.sourceCommitMicros(), ChronoUnit.MICROS);
    }

    /** Seconds, see the type's comment; null when unknown. */
    public Double lagSeconds() {
        Boolean caught = caughtUp();
        if (caught == null) {
            return null;
        }
        if (caught) {
            return 0.0;
        }
        Instant last = lastCommit();
        if (last == null) {
            return null;
        }
        return Math.max(0, (now.toEpochMilli() * 1000 - saved.sourceCommitMicros()) / 1e6);
    }

    public String text() {
        Map<String, String> rows = new LinkedHashMap<>();
        rows.put("applier", name);
        rows.put("state row", stateTable + " on " + target + (updatedAt == null ? "" : ", updated " + updatedAt));
        rows.put("process", process == null ? "not running: no applier process seen yet" : process.describe());
        rows.put("last error", lastError == null ? "none" : lastError.describe().replace("\n", " "));
        if (saved == null) {
            rows.put("position", "none: never started (the first run starts at source.start)");
        } else {
            rows.put("position", saved.position().coordinates() + (saved.position().gtids().isEmpty() ? ""
                : ", gtid " + saved.position().gtids()) + " (resume by "
                + saved.position().resumeBy().name().toLowerCase() + ")"
                + (savedServerId == null ? "" : ", in server_id " + savedServerId + "'s binlog"));
            // pending: a DDL or non-transactional transaction (it may be partly applied), or one too large to be
            // known whole before it starts (read in parts: it may hold either, so it is recorded the same way)
            rows.put("pending", saved.pending() == null ? "none" : "the transaction at "
                + saved.pending().coordinates() + (saved.pending().gtids().isEmpty() ? ""
                : " (gtid " + saved.pending().gtids() + ")") + " was being applied (a DDL or non-transactional one may"
                + " be partly applied; a large one read in parts is recorded the same way); the next run replays it"
                + " idempotently");
            rows.put("applied", saved.appliedTransactions() + " transactions");
            Instant last = lastCommit();
            rows.put("last commit", last == null ? "none yet" : last + " (source time of the last applied transaction)");
        }
        rows.put("target tls", tlsText(targetTls));
        if (source != null) {
            rows.put("source tls", tlsText(source.tls()));
            rows.put("source end", source.end() + (source.gtids() == null || source.gtids().isBlank() ? ""
                : ", gtid " + source.gtids().replace("\n", "")) + " (" + source.address()
                + (source.serverId() == null ? "" : ", server_id " + source.serverId()) + ")");
        }
        if (sourceChanged()) {
            // the message the run would stop with, so that the two never say different things
            rows.put("source changed", "the next run stops with exit 19 and applies nothing: " + SourceIdentity.changed(
                source.address(), source.serverId(), savedServerId, saved.position()).getMessage());
        }
        if (saved != null && source != null) {
            Long behind = bytesBehind();
            rows.put("behind", Boolean.TRUE.equals(caughtUp()) ? "0 bytes: caught up with the source"
                : behind == null ? "unknown (the saved binlog file is no longer on the source)" : behind + " bytes");
            Double lag = lagSeconds();
            rows.put("lag", lag == null ? "unknown (no transaction applied yet)"
                : lag == 0 ? "0 s" : String.format(java.util.Locale.ROOT, "%.3f s (at most: now minus the last applied"
                + " commit)", lag));
        }
        int width = 0;
        for (String k : rows.keySet()) {
            width = Math.max(width, k.length());
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : rows.entrySet()) {
            sb.append(String.format("%-" + width + "s  %s%n", e.getKey(), e.getValue()));
        }
        return sb.toString();
    }

    public String json() {
        List<String> f = new ArrayList<>();
        f.add(field("name", name));
        f.add(field("started", saved != null));
        f.add(field("state_table", stateTable));
        f.add(field("updated_at", updatedAt == null ? null : updatedAt.toString()));
        f.add(field("running", running()));
        if (process != null) {
            f.add("\"process\":{" + String.join(",", List.of(field("host", process.host()), field("pid", process.pid()),
                field("started_at", str(process.startedAt())), field("alive_at", str(process.aliveAt())),
                field("stopped_at", str(process.stoppedAt())), field("lock_holder", process.lockHolder()))) + "}");
        }
        if (lastError == null) {
            f.add("\"last_error\":null");
        } else {
            f.add("\"last_error\":{" + String.join(",", List.of(field("exit_code", lastError.exitCode()),
                field("name", lastError.name()), field("message", lastError.message()),
                field("gtid", lastError.inTransaction() ? lastError.transaction().gtid() : null),
                field("file", lastError.transaction().start().file()),
                field("offset", lastError.transaction().start().offset()),
                field("in_transaction", lastError.inTransaction()), field("at", str(lastError.at())))) + "}");
        }
        if (saved != null) {
            f.add("\"position\":" + position(saved.position().coordinates(), saved.position().gtids(),
                saved.position().resumeBy().name().toLowerCase(), savedServerId, true));
            f.add("\"pending\":" + (saved.pending() == null ? "null" : position(saved.pending().coordinates(),
                saved.pending().gtids(), null, null, false)));
            f.add(field("applied_transactions", saved.appliedTransactions()));
            f.add(field("last_commit", lastCommit() == null ? null : lastCommit().toString()));
        }
        if (source != null) {
            f.add("\"source_end\":" + position(source.end(), source.gtids() == null ? "" : source.gtids(), null,
                source.serverId(), true));
            f.add(field("source_changed", sourceChanged()));
        }
        f.add(field("target_encrypted", targetTls == null ? null : !targetTls.isEmpty()));
        f.add(field("target_tls", targetTls == null || targetTls.isEmpty() ? null : targetTls));
        if (source != null) {
            f.add(field("source_encrypted", source.tls() == null ? null : !source.tls().isEmpty()));
            f.add(field("source_tls", source.tls() == null || source.tls().isEmpty() ? null : source.tls()));
        }
        f.add(field("caught_up", caughtUp()));
        f.add(field("bytes_behind", bytesBehind()));
        f.add(field("lag_seconds", lagSeconds()));
        return "{" + String.join(",", f) + "}";
    }

    private static String str(Instant t) {
        return t == null ? null : t.toString();
    }

    private static String tlsText(String tls) {
        return tls == null ? "unknown" : tls.isEmpty() ? "not encrypted" : "encrypted, " + tls;
    }

    /** @param withServerId add {@code server_id} (the server whose binlog the file position is in; null: unknown) */
    private static String position(BinlogCoordinates c, String gtids, String resumeBy, Long serverId,
                                   boolean withServerId) {
        List<String> f = new ArrayList<>();
        f.add(field("file", c.file()));
        f.add(field("offset", c.offset()));
        f.add(field("gtid_set", gtids.replace("\n", "")));
        if (resumeBy != null) {
            f.add(field("resume_by", resumeBy));
        }
        if (withServerId) {
            f.add(field("server_id", serverId));
        }
        return "{" + String.join(",", f) + "}";
    }

    private static String field(String key, Object value) {
        String v;
        if (value == null) {
            v = "null";
        } else if (value instanceof Number || value instanceof Boolean) {
            v = value.toString();
        } else {
            v = quote(value.toString());
        }
        return quote(key) + ":" + v;
    }

    public static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
