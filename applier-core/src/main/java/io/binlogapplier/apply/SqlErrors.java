package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/**
 * The one classifier of target SQL errors, by SQLSTATE class and vendor code (MySQL and MariaDB
 * share these codes). Pure.
 */
public final class SqlErrors {

    /** What to do about an error. */
    public enum Verdict {
        /** Lost a lock conflict or timed out waiting: roll back, retry the unit. */
        RETRY,
        /** The connection broke: reconnect and retry the unit. */
        RECONNECT,
        /** Retrying cannot help: stop. */
        FATAL
    }

    static final int ER_DUP_ENTRY = 1062;
    static final int ER_LOCK_WAIT_TIMEOUT = 1205;
    static final int ER_LOCK_DEADLOCK = 1213;
    static final int ER_QUERY_INTERRUPTED = 1317;
    static final int ER_NO_SUCH_TABLE = 1146;
    static final int ER_BAD_FIELD = 1054;
    static final int ER_BAD_DB = 1049;
    static final int ER_WARN_DATA_OUT_OF_RANGE = 1264;
    static final int ER_DATA_TOO_LONG = 1406;
    static final int WARN_DATA_TRUNCATED = 1265;
    static final int ER_TRUNCATED_WRONG_VALUE_FOR_FIELD = 1366;
    static final int ER_TRUNCATED_WRONG_VALUE = 1292;
    static final int ER_BAD_NULL = 1048;
    static final int ER_NO_REFERENCED_ROW = 1452;
    static final int ER_ROW_IS_REFERENCED = 1451;
    static final int ER_ACCESS_DENIED = 1045;
    static final int ER_TABLEACCESS_DENIED = 1142;
    static final int ER_COLUMNACCESS_DENIED = 1143;
    static final int ER_DBACCESS_DENIED = 1044;
    static final int ER_SPECIFIC_ACCESS_DENIED = 1227;
    static final int ER_NET_PACKET_TOO_LARGE = 1153;
    static final int ER_SERVER_SHUTDOWN = 1053;
    static final int ER_CONNECTION_KILLED = 1927;
    static final int CR_SERVER_GONE = 2006;
    static final int CR_SERVER_LOST = 2013;

    private SqlErrors() {
    }

    public static Verdict verdict(SQLException e) {
        int code = e.getErrorCode();
        String state = e.getSQLState();
        if (code == ER_LOCK_DEADLOCK || code == ER_LOCK_WAIT_TIMEOUT || code == ER_QUERY_INTERRUPTED
            || "40001".equals(state)) {
            return Verdict.RETRY;
        }
        if (code == CR_SERVER_GONE || code == CR_SERVER_LOST || code == ER_SERVER_SHUTDOWN
            || code == ER_CONNECTION_KILLED || (state != null && state.startsWith("08"))
            || e instanceof SQLTransientConnectionException) {
            return Verdict.RECONNECT;
        }
        return Verdict.FATAL;
    }

    /** The exit code a fatal target error maps to. */
    public static ExitCode exitCode(SQLException e) {
        return switch (e.getErrorCode()) {
            case ER_DUP_ENTRY, ER_NO_REFERENCED_ROW, ER_ROW_IS_REFERENCED -> ExitCode.TARGET_DATA_CONFLICT;
            case ER_NO_SUCH_TABLE, ER_BAD_FIELD, ER_BAD_DB -> ExitCode.TARGET_SCHEMA_MISMATCH;
            case ER_WARN_DATA_OUT_OF_RANGE, ER_DATA_TOO_LONG, WARN_DATA_TRUNCATED, ER_TRUNCATED_WRONG_VALUE_FOR_FIELD,
                 ER_TRUNCATED_WRONG_VALUE, ER_BAD_NULL, ER_NET_PACKET_TOO_LARGE -> ExitCode.TARGET_VALUE_REJECTED;
            case ER_TABLEACCESS_DENIED, ER_COLUMNACCESS_DENIED, ER_DBACCESS_DENIED, ER_SPECIFIC_ACCESS_DENIED ->
                ExitCode.TARGET_PRIVILEGE;
            case ER_ACCESS_DENIED -> ExitCode.TARGET_ACCESS_DENIED;
            default -> verdict(e) == Verdict.RECONNECT ? ExitCode.TARGET_UNREACHABLE : ExitCode.TARGET_STATEMENT_FAILED;
        };
    }

    /** The fix to suggest for a fatal error. */
    static String fix(SQLException e) {
        return switch (exitCode(e)) {
            case TARGET_DATA_CONFLICT -> "the target's data differs from the source's; repair the target (or re-seed"
                + " it from the source) and restart";
            case TARGET_SCHEMA_MISMATCH -> "make the target's schema match the source's (SHOW CREATE TABLE on both)"
                + " and restart";
            case TARGET_VALUE_REJECTED -> e.getErrorCode() == ER_NET_PACKET_TOO_LARGE
                ? "raise max_allowed_packet on the target"
                : "the target column cannot hold the source's value: give it the source's type (SHOW CREATE TABLE on"
                + " both) and restart";
            case TARGET_PRIVILEGE -> "GRANT the missing privilege to the target user and restart";
            case TARGET_ACCESS_DENIED -> "check target.user and target.password";
            case TARGET_UNREACHABLE -> "check that the target server is running and reachable";
            default -> "fix the cause on the target and restart; binlog-applier resumes from the last committed position";
        };
    }

    /** A one-line fatal error naming what failed, where in the stream, and the fix. */
    public static ApplierException fatal(SQLException e, String what, String where) {
        return new ApplierException(exitCode(e), what + " failed on the target (error " + e.getErrorCode() + ": "
            + firstLine(e.getMessage()) + ") in " + where + ": " + fix(e), e);
    }

    /** The first line of an exception's message. */
    public static String firstLineOf(SQLException e) {
        return e.getErrorCode() + ": " + firstLine(e.getMessage());
    }

    static String firstLine(String s) {
        if (s == null) {
            return "no message";
        }
        int nl = s.indexOf('\n');
        return (nl >= 0 ? s.substring(0, nl) : s).trim();
    }
}
