package io.binlogapplier.server.metrics;

import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.pipeline.ApplierStatus;
import io.binlogapplier.pipeline.PipelineMetrics;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.Transaction;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pipeline's metrics in a Micrometer registry. Every meter is named {@code binlog_applier_…}
 * (in Prometheus form), has a description and a {@code target} tag (the applier's name). Counters
 * are counted as things happen (lock-free adders); gauges read {@link ApplierStatus} when scraped.
 * Thread-safe.
 */
public final class MicrometerMetrics implements PipelineMetrics {
    static final String PREFIX = "binlog_applier.";
    static final String LAG = PREFIX + "lag";
    static final String TRANSACTIONS_RECEIVED = PREFIX + "transactions.received";
    static final String ROWS_RECEIVED = PREFIX + "rows.received";
    static final String RECEIVED = PREFIX + "received";
    static final String TRANSACTIONS_APPLIED = PREFIX + "transactions.applied";
    static final String ROWS_APPLIED = PREFIX + "rows.applied";
    static final String APPLIED = PREFIX + "applied";
    static final String UNITS_COMMITTED = PREFIX + "units.committed";
    static final String UNIT_TRANSACTIONS = PREFIX + "unit.transactions";
    static final String UNIT_SIZE = PREFIX + "unit";
    static final String RING_ENTRIES = PREFIX + "ring.entries";
    static final String RING_SIZE = PREFIX + "ring";
    static final String WORKERS_BUSY = PREFIX + "workers.busy";
    static final String WORKERS_ACTIVE = PREFIX + "workers.active";
    static final String RETRIES = PREFIX + "retries";
    static final String CONFLICTS = PREFIX + "conflicts";
    static final String ERRORS = PREFIX + "errors";
    static final String BARRIERS = PREFIX + "barriers";
    static final String RECONNECTS = PREFIX + "reconnects";
    static final String NET_EFFECT_ROWS = PREFIX + "net.effect.rows";
    static final String NET_EFFECT_STATEMENTS = PREFIX + "net.effect.statements";
    static final String ORDERED_ROWS = PREFIX + "ordered.rows";
    static final String LINKED_ROWS = PREFIX + "linked.rows";
    static final String LINKED_STATEMENTS = PREFIX + "linked.statements";
    static final String TAIL_TRANSACTIONS = PREFIX + "tail.transactions";
    static final String CONTENDED_TABLES = PREFIX + "contended.tables";
    static final String BEFORE_IMAGE_DROPPED = PREFIX + "before.image.dropped";
    static final String AFTER_IMAGE_DROPPED = PREFIX + "after.image.dropped";
    static final String READ_AHEAD_ROWS = PREFIX + "read.ahead.rows";
    static final String READ_AHEAD_STATEMENTS = PREFIX + "read.ahead.statements";
    static final String SOURCE_FILE_INDEX = PREFIX + "source.binlog.file.index";
    static final String SOURCE_OFFSET = PREFIX + "source.binlog.offset";
    static final String APPLIED_FILE_INDEX = PREFIX + "applied.binlog.file.index";
    static final String APPLIED_OFFSET = PREFIX + "applied.binlog.offset";
    static final String APPLIED_COMMIT_TIME = PREFIX + "applied.source.commit.timestamp";
    static final String BINLOG_FILE = PREFIX + "binlog.file.info";
    static final String BYTES_BEHIND = PREFIX + "bytes.behind";
    static final String ROW_EVENTS_FILTERED = PREFIX + "filtered.row.events";
    static final String BUILD_INFO = PREFIX + "build.info";
    static final String FLUSH_RELAXED = PREFIX + "flush.relaxed";
    static final String STATE = PREFIX + "state";
    static final String APPLY_METHOD = PREFIX + "apply.method";

    private static final Pattern NUMBERED = Pattern.compile("^.*\\.(\\d+)$");

    private final MeterRegistry registry;
    private final Tags target;
    /** The gauges' source; held here so the registry's weak references never lose it. */
    private final ApplierStatus status;
    private final Counter transactionsReceived;
    private final Counter rowsReceived;
    private final Counter bytesReceived;
    private final Counter transactionsApplied;
    private final Counter rowsApplied;
    private final Counter bytesApplied;
    private final Counter unitsCommitted;
    private final DistributionSummary unitTransactions;
    private final DistributionSummary unitBytes;
    private final Map<String, Counter> retries = new ConcurrentHashMap<>();
    private final Map<String, Counter> conflicts = new ConcurrentHashMap<>();
    private final Map<String, Counter> errors = new ConcurrentHashMap<>();
    private final Map<String, Counter> barriers = new ConcurrentHashMap<>();
    private final Map<String, Counter> reconnects = new ConcurrentHashMap<>();
    private final Map<String, Counter> readAheadRows = new ConcurrentHashMap<>();
    private final Counter readAheadStatements;
    private final Counter netEffectRows;
    private final Counter tailTransactions;
    private final Counter contendedTables;
    private final Counter netEffectStatements;
    private final Counter beforeImageDropped;
    private final Counter afterImageDropped;
    private final Counter orderedRows;
    private final Counter linkedRows;
    private final Counter linkedStatements;
    private final Counter rowEventsFiltered;
    private final MultiGauge files;

    /** As {@link #MicrometerMetrics(MeterRegistry, String, ApplierStatus, String)} with an unknown version. */
    public MicrometerMetrics(MeterRegistry registry, String targetName, ApplierStatus status) {
        this(registry, targetName, status, "unknown");
    }

    /** @param version what {@code binlog_applier_build_info} reports in its {@code version} label */
    public MicrometerMetrics(MeterRegistry registry, String targetName, ApplierStatus status, String version) {
        this.registry = registry;
        this.target = Tags.of("target", targetName);
        this.status = status;
        transactionsReceived = counter(TRANSACTIONS_RECEIVED, null, "Source transactions received from the binlog");
        rowsReceived = counter(ROWS_RECEIVED, null, "Row changes received (an UPDATE's before and after image count as one)");
        bytesReceived = counter(RECEIVED, "bytes", "Binlog event bytes of the transactions received");
        transactionsApplied = counter(TRANSACTIONS_APPLIED, null, "Source transactions committed on the target");
        rowsApplied = counter(ROWS_APPLIED, null, "Row changes committed on the target");
        bytesApplied = counter(APPLIED, "bytes", "Binlog event bytes of the transactions committed on the target");
        unitsCommitted = counter(UNITS_COMMITTED, null, "Apply units (target transactions) committed");
        tailTransactions = counter(TAIL_TRANSACTIONS, null, "Source transactions applied in their unit's tail, after"
            + " its other transactions, once the earlier units they share keys with had committed (optimistic mode)");
        contendedTables = counter(CONTENDED_TABLES, null, "Tables that lock conflicts between units kept naming"
            + " although the units shared no key: their changes in different units now wait for each other");
        netEffectRows = counter(NET_EFFECT_ROWS, null, "Row changes the SQL method applied as their net effect per key"
            + " (see net_effect_statements)");
        netEffectStatements = counter(NET_EFFECT_STATEMENTS, null, "Multi-row statements the SQL method sent for the"
            + " row changes counted in net_effect_rows");
        orderedRows = counter(ORDERED_ROWS, null, "Row changes the SQL method applied one by one in source order"
            + " (tables with foreign keys or target triggers, rows events without whole images, or apply.net_effect"
            + " off)");
        linkedRows = counter(LINKED_ROWS, null, "Row changes to tables foreign keys link that the SQL method grouped by"
            + " key, several per statement where no key orders them (see linked_statements)");
        linkedStatements = counter(LINKED_STATEMENTS, null, "Statements the SQL method sent for the row changes counted"
            + " in linked_rows");
        beforeImageDropped = counter(BEFORE_IMAGE_DROPPED, "bytes", "Bytes of UPDATE and DELETE before images the"
            + " BINLOG method left out, keeping only the primary key (apply.lean_before_images), in committed units");
        afterImageDropped = counter(AFTER_IMAGE_DROPPED, "bytes", "Bytes of UPDATE after images the BINLOG method"
            + " left out, keeping only the columns that changed (apply.lean_after_images), in committed units");
        readAheadStatements = counter(READ_AHEAD_STATEMENTS, null, "Statements read-ahead sent for the row changes"
            + " counted in read_ahead_rows{outcome=\"read\"}");
        rowEventsFiltered = counter(ROW_EVENTS_FILTERED, null, "Row events of tables the filter leaves out, dropped as"
            + " they were read (filter.include/exclude)");
        Gauge.builder(BUILD_INFO, () -> 1).tags(target).tag("version", version).tag("java", System.getProperty(
            "java.version")).description("1, labelled with the binlog-applier version and the Java version it runs on")
            .strongReference(true).register(registry);
        unitTransactions = DistributionSummary.builder(UNIT_TRANSACTIONS).tags(target)
            .description("Source transactions per committed apply unit (block commit)").register(registry);
        unitBytes = DistributionSummary.builder(UNIT_SIZE).tags(target).baseUnit("bytes")
            .description("Binlog event bytes per committed apply unit").register(registry);

        gauge(LAG, "seconds", "Replication lag: now minus the source commit time of the oldest transaction received"
            + " but not yet applied; 0 when everything received is applied and the reader is at the source's binlog"
            + " end; NaN while unknown", ApplierStatus::lagSeconds);
        gauge(BYTES_BEHIND, null, "Bytes of source binlog after the applied position (across files by the sizes"
            + " SHOW BINARY LOGS gives, as the status command counts them); 0 when caught up; NaN while unknown",
            s -> {
                long b = s.bytesBehind();
                return b < 0 ? Double.NaN : b;
            });
        gauge(RING_ENTRIES, null, "Ring entries published and not yet released by every handler",
            ApplierStatus::ringEntries);
        gauge(RING_SIZE, "bytes", "Event bytes received and not yet committed (bounded by apply.ring_bytes)",
            ApplierStatus::ringBytes);
        gauge(WORKERS_BUSY, null, "Workers applying a unit", ApplierStatus::busyWorkers);
        gauge(WORKERS_ACTIVE, null, "Workers that take new units: apply.workers, or under workers: auto 1 while the"
            + " target works from memory and up to 16 while it reads pages from disk", ApplierStatus::activeWorkers);
        gauge(SOURCE_FILE_INDEX, null, "Numeric suffix of the source's current binlog file (the end the source"
            + " reports through heartbeats and SHOW MASTER STATUS)", s -> fileIndex(s.sourceEnd()));
        gauge(SOURCE_OFFSET, null, "Byte offset of the source's binlog end in that file",
            s -> s.sourceEnd() == null ? Double.NaN : s.sourceEnd().offset());
        gauge(APPLIED_FILE_INDEX, null, "Numeric suffix of the binlog file of the applied position (everything up to"
            + " it is committed on the target)", s -> fileIndex(applied(s)));
        gauge(APPLIED_OFFSET, null, "Byte offset of the applied position in that file",
            s -> applied(s) == null ? Double.NaN : applied(s).offset());
        gauge(APPLIED_COMMIT_TIME, "seconds", "Source commit time of the last applied transaction, seconds since the"
            + " epoch (0: unknown)", s -> s.appliedCommitMicros() / 1e6);
        gauge(FLUSH_RELAXED, null, "1 while this applier holds the target's innodb_flush_log_at_trx_commit and"
            + " sync_binlog relaxed (durability.mode), else 0", s -> s.flushRelaxed() ? 1 : 0);
        for (ApplierStatus.State state : ApplierStatus.State.values()) {
            Gauge.builder(STATE, status, s -> s.state() == state ? 1 : 0).tags(target).tag("state", state.label())
                .description("1 for the applier's current state (starting, applying, caught_up, reconnecting,"
                    + " stopping, stopped, failed), 0 for the others").strongReference(true).register(registry);
        }
        for (String method : List.of("sql", "binlog")) {
            for (String configured : List.of("auto", method)) {
                Gauge.builder(APPLY_METHOD, status, s -> usesMethod(s, method, configured)).tags(target)
                    .tag("method", method).tag("configured", configured)
                    .description("1 for the apply method in use (method) and the apply.method it came from"
                        + " (configured: auto, or the method itself), 0 for the others and before the start decided")
                    .strongReference(true).register(registry);
            }
        }
        files = MultiGauge.builder(BINLOG_FILE).tags(target)
            .description("1, labelled with the binlog file name of the applied position (of=applied) and of the"
                + " source's binlog end (of=source)").register(registry);
        for (String reason : List.of("preempted", "deadlock", "lock_wait_timeout", "interrupted",
            "data_conflict_in_flight", "redone_as_sql", "serialization_failure")) {
            retried(reason, 0);
        }
        for (String reason : List.of("lock_wait", "long_statement")) {
            tagged(conflicts, CONFLICTS, "reason", reason);
        }
        for (String cause : List.of("ddl", "large_transaction", "source_rollback", "statement_dml",
            "non_transactional")) {
            tagged(barriers, BARRIERS, "cause", cause);
        }
        for (String kind : List.of("source_lost", "target_lost", "source_end_poll", "flush_settings")) {
            tagged(errors, ERRORS, "kind", kind);
        }
        for (String side : List.of("source", "target")) {
            tagged(reconnects, RECONNECTS, "side", side);
        }
        refresh();
    }

    private static double usesMethod(ApplierStatus s, String method, String configured) {
        MethodChoice m = s.applyMethod();
        return m != null && m.methodName().equals(method) && (m.auto() ? "auto" : m.methodName()).equals(configured)
            ? 1 : 0;
    }

    /** Brings the gauges whose label values change (binlog file names) up to date; call before a scrape. */
    public void refresh() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>(2);
        BinlogCoordinates applied = applied(status);
        if (applied != null) {
            rows.add(MultiGauge.Row.of(Tags.of("of", "applied", "file", applied.file()), 1));
        }
        BinlogCoordinates end = status.sourceEnd();
        if (end != null) {
            rows.add(MultiGauge.Row.of(Tags.of("of", "source", "file", end.file()), 1));
        }
        files.register(rows, true);
    }

    @Override
    public void received(Transaction part) {
        if (part.lastPart()) {
            transactionsReceived.increment();
        }
        bytesReceived.increment(part.sizeBytes());
        long rows = 0;
        for (Change c : part.changes()) {
            if (c instanceof Change.Rows r) {
                rows += r.rowCount();
            }
        }
        if (rows > 0) {
            rowsReceived.increment(rows);
        }
    }

    @Override
    public void unitCommitted(int transactions, long rows, long bytes) {
        unitsCommitted.increment();
        transactionsApplied.increment(transactions);
        rowsApplied.increment(rows);
        bytesApplied.increment(bytes);
        unitTransactions.record(transactions);
        unitBytes.record(bytes);
    }

    @Override
    public void rowEventFiltered() {
        rowEventsFiltered.increment();
    }

    @Override
    public void retried(String reason) {
        retried(reason, 1);
    }

    private void retried(String reason, int n) {
        Counter c = tagged(retries, RETRIES, "reason", reason);
        if (n > 0) {
            c.increment(n);
        }
    }

    @Override
    public void barrier(String cause) {
        tagged(barriers, BARRIERS, "cause", cause).increment();
    }

    @Override
    public void leanImages(long beforeBytesDropped, long afterBytesDropped) {
        if (beforeBytesDropped > 0) {
            beforeImageDropped.increment(beforeBytesDropped);
        }
        if (afterBytesDropped > 0) {
            afterImageDropped.increment(afterBytesDropped);
        }
    }

    @Override
    public void tailApplied(int transactions) {
        tailTransactions.increment(transactions);
    }

    @Override
    public void tableContended() {
        contendedTables.increment();
    }

    @Override
    public void netEffect(long netRows, long statements, long ordered) {
        if (netRows > 0) {
            netEffectRows.increment(netRows);
            netEffectStatements.increment(statements);
        }
        if (ordered > 0) {
            orderedRows.increment(ordered);
        }
    }

    @Override
    public void linkedRows(long rows, long statements) {
        if (rows > 0) {
            linkedRows.increment(rows);
            linkedStatements.increment(statements);
        }
    }

    @Override
    public void readAhead(String outcome, long rows, long statements) {
        tagged(readAheadRows, READ_AHEAD_ROWS, "outcome", outcome).increment(rows);
        if (statements > 0) {
            readAheadStatements.increment(statements);
        }
    }

    @Override
    public void conflict(String reason) {
        tagged(conflicts, CONFLICTS, "reason", reason).increment();
    }

    @Override
    public void error(String kind) {
        tagged(errors, ERRORS, "kind", kind).increment();
    }

    @Override
    public void reconnect(String side) {
        tagged(reconnects, RECONNECTS, "side", side).increment();
    }

    private Counter tagged(Map<String, Counter> counters, String name, String tag, String value) {
        return counters.computeIfAbsent(value, v -> Counter.builder(name).tags(target).tag(tag, v)
            .description(switch (name) {
                case RETRIES -> "Apply units rolled back and applied again, by reason (preempted: an earlier unit"
                    + " waited for its locks; deadlock; lock_wait_timeout; interrupted; data_conflict_in_flight: a"
                    + " data conflict met while earlier units were in flight; redone_as_sql: a BINLOG statement, net"
                    + " effect or batch failed without naming its row, applied again as SQL row by row; other)";
                case BARRIERS -> "Transactions applied alone (barriers), by cause: ddl, large_transaction (more than"
                    + " one part), source_rollback (non-transactional changes the source rolled back), statement_dml"
                    + " (statement-format DML), non_transactional (a table that cannot roll back)";
                case CONFLICTS -> "Lock conflicts the conflict monitor resolved by making a later unit give way, by"
                    + " reason (lock_wait: an earlier unit waited for its lock; long_statement: an earlier unit was"
                    + " stuck in one statement)";
                case READ_AHEAD_ROWS -> "Row changes apply.read_ahead dealt with, by outcome: read (their index"
                    + " entries read before a worker changed them), late (a worker was there first), skipped"
                    + " (enabled: auto, and the target read next to nothing from disk), dropped (its"
                    + " queue was full), failed (the read failed or timed out; the change is applied as always)";
                case RECONNECTS -> "Reconnect attempts to a lost server, by side (source, target); each attempt of"
                    + " an outage counts once";
                default -> "Errors, by kind: source_lost, target_lost (reconnected), source_end_poll, flush_settings,"
                    + " or the exit"
                    + " code name of a failure that stopped the applier";
            }).register(registry));
    }

    private Counter counter(String name, String unit, String description) {
        Counter.Builder b = Counter.builder(name).tags(target).description(description);
        if (unit != null) {
            b.baseUnit(unit);
        }
        return b.register(registry);
    }

    private void gauge(String name, String unit, String description, ToDoubleFunction<ApplierStatus> value) {
        Gauge.Builder<ApplierStatus> b = Gauge.builder(name, status, value).tags(target).description(description)
            .strongReference(true);
        if (unit != null) {
            b.baseUnit(unit);
        }
        b.register(registry);
    }

    private static BinlogCoordinates applied(ApplierStatus s) {
        SourcePosition p = s.appliedPosition();
        return p == null ? null : p.coordinates();
    }

    /** {@code mysql-bin.000042} → 42; NaN when unknown or not numbered. */
    static double fileIndex(BinlogCoordinates at) {
        if (at == null) {
            return Double.NaN;
        }
        Matcher m = NUMBERED.matcher(at.file());
        return m.matches() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }
}
