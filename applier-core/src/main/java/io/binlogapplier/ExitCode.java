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
    SOURCE_BINLOG_FORMAT(13, false, "source binlog_format is not ROW"),
    SOURCE_UNSUPPORTED(14, false, "the source sent something binlog-applier cannot apply"),
    SOURCE_PRIVILEGE(15, false, "the source user lacks a privilege"),
    SOURCE_SERVER_ID_IN_USE(16, false, "another replica of the source uses the same server_id"),
    SOURCE_STATEMENT_UNFILTERABLE(17, false, "a source statement the filter cannot split or rename"),
    SOURCE_TLS(18, false, "the source connection cannot be secured as source.tls asks (no TLS, certificate not"
        + " trusted or for another host)"),
    TARGET_UNREACHABLE(20, true, "target server unreachable"),
    TARGET_ACCESS_DENIED(21, false, "target server refused the user or password"),
    TARGET_SCHEMA_MISMATCH(22, false, "a target table is missing or differs from the source"),
    TARGET_DATA_CONFLICT(23, false, "a row change does not fit the target's data (missing row, duplicate key)"),
    TARGET_VALUE_REJECTED(24, false, "the target cannot hold a source value"),
    TARGET_PRIVILEGE(25, false, "the target user lacks a privilege"),
    TARGET_STATEMENT_FAILED(26, false, "a statement from the source failed on the target"),
    TARGET_TLS(28, false, "the target connection cannot be secured as target.tls asks (no TLS, certificate not"
        + " trusted or for another host)"),
    STATE_INVALID(30, false, "the applier state table on the target is unusable"),
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
