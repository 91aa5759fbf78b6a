package io.binlogapplier;

/**
 * The process exit codes of binlog-applier. Each user-caused failure has its own code so that an
 * operator (or systemd's {@code RestartPreventExitStatus=}) can tell them apart without reading logs.
 *
 * <p>{@link #restartMayHelp()} says whether restarting the same configuration could succeed: a
 * network blip may clear, a wrong password will not.
 */
public enum ExitCode {
    OK(0, true, "finished"),
    INTERNAL(1, true, "internal error (a bug): please report it with the log"),
    USAGE(2, false, "bad command line"),
    CONFIG(3, false, "invalid configuration file"),
    /**
     * {@code check} found a problem (a FAIL row). Only {@code check} returns it, never {@code run}, so
     * systemd never sees it; "restart may help" is true only to keep it out of the unit's
     * RestartPreventExitStatus=, which lists what {@code run} returns.
     */
    CHECK_FAILED(4, true, "check found a problem (a FAIL row)"),
    SOURCE_UNREACHABLE(10, true, "source server unreachable"),
    SOURCE_ACCESS_DENIED(11, false, "source server refused the user or password"),
    SOURCE_POSITION_UNAVAILABLE(12, false, "the start or saved position is no longer on the source"),
    SOURCE_BINLOG_FORMAT(13, false, "source binary logging is off or binlog_format is not ROW"),
    SOURCE_UNSUPPORTED(14, false, "the source sent something binlog-applier cannot apply"),
    SOURCE_PRIVILEGE(15, false, "the source user lacks a privilege"),
    SOURCE_SERVER_ID_IN_USE(16, false, "another replica of the source uses the same server_id"),
    SOURCE_STATEMENT_UNFILTERABLE(17, false, "a source statement the filter cannot split or rename"),
    SOURCE_TLS(18, false, "the source connection cannot be secured as source.tls asks (no TLS, certificate not"
        + " trusted or for another host)"),
    /**
     * Another server answers at the source's address than the one whose binlog the saved file position
     * is in (a failover, a moved address): the same file and offset there are other transactions.
     */
    SOURCE_CHANGED(19, false, "another server answers at the source's address than the one the saved file position"
        + " belongs to"),
    TARGET_UNREACHABLE(20, true, "target server unreachable"),
    TARGET_ACCESS_DENIED(21, false, "target server refused the user or password"),
    TARGET_SCHEMA_MISMATCH(22, false, "a target table is missing or differs from the source"),
    TARGET_DATA_CONFLICT(23, false, "a row change does not fit the target's data (missing row, duplicate key)"),
    TARGET_VALUE_REJECTED(24, false, "the target cannot hold a source value"),
    TARGET_PRIVILEGE(25, false, "the target user lacks a privilege"),
    TARGET_STATEMENT_FAILED(26, false, "a statement from the source failed on the target"),
    /**
     * {@code apply.method: binlog} on a target whose {@code slave_exec_mode} (or {@code replica_exec_mode}) is
     * IDEMPOTENT, under which BINLOG statements hide duplicate keys and missing rows.
     */
    TARGET_EXEC_MODE(27, false, "the target's slave_exec_mode is IDEMPOTENT, which BINLOG statements obey"),
    TARGET_TLS(28, false, "the target connection cannot be secured as target.tls asks (no TLS, certificate not"
        + " trusted or for another host)"),
    STATE_INVALID(30, false, "the applier state table on the target is unusable"),
    /**
     * Another process holds the stream's lock on the target: an applier of the same name runs, or a
     * command that needs it stopped ({@code skip}, {@code set-position}, {@code adopt}, {@code handback})
     * is under way. A restart may help: such a command ends within seconds.
     */
    APPLIER_RUNNING(31, true, "the applier of this name runs (or a command holds its lock): stop it first"),
    /** {@code adopt}/{@code handback}: the target is no native replica of the configured source. Commands only. */
    REPLICA_MISMATCH(32, false, "the target is not a native replica of the configured source"),
    /**
     * {@code adopt}/{@code handback}: the native replica's SQL thread runs; {@code run}: the target's
     * native replication applies the same source.
     */
    REPLICA_SQL_RUNNING(33, false, "the native replica's SQL thread runs: STOP SLAVE SQL_THREAD first"),
    /** {@code skip --gtid G}: the next transaction is not G. Commands only. */
    SKIP_REFUSED(34, false, "skip --gtid names a transaction that is not the next one"),
    /** {@code skip}: the source has fewer transactions after the saved position than asked. Commands only. */
    NOTHING_TO_SKIP(35, false, "the source has no (or too few) transactions after the saved position to skip"),
    /** {@code skip}/{@code handback}: no state row: the applier never ran. Commands only. */
    NO_SAVED_POSITION(36, false, "the target has no saved position for this applier"),
    /** {@code handback}: the saved position has a pending (possibly partly applied) DDL. Commands only. */
    HANDBACK_PENDING(37, false, "handback refused: a DDL or non-transactional transaction may be partly applied"),
    /**
     * {@code verify} found a table whose rows differ from the source's. Only {@code verify} returns it
     * (never {@code run}); "restart may help" is true only to keep it out of RestartPreventExitStatus=,
     * as for {@link #CHECK_FAILED}.
     */
    VERIFY_DIFFERS(38, true, "verify found rows that differ between source and target"),
    /** {@code verify} could not confirm every chunk (rows kept changing, applier behind); only verify returns it. */
    VERIFY_INCOMPLETE(39, true, "verify could not compare every table (none differed)"),
    STOP_TIMEOUT(40, true, "graceful stop did not finish in time"),
    METRICS_LISTEN(50, false, "the metrics endpoint cannot listen on metrics.listen (address in use or not allowed)");

    private final int code;
    private final boolean restartMayHelp;
    private final String meaning;

    ExitCode(int code, boolean restartMayHelp, String meaning) {
        this.code = code;
        this.restartMayHelp = restartMayHelp;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public boolean restartMayHelp() {
        return restartMayHelp;
    }

    public String meaning() {
        return meaning;
    }
}
