package io.binlogapplier.errors;

import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.BinlogFormatException;
import io.binlogapplier.errors.Classification.Action;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Locale;
import java.util.Objects;

/**
 * The one classifier of failures: what a throwable from the source or the target means, what to
 * do about it and which exit code it ends in. Pure; messages naming the server, user and position
 * are the callers' (they know them), the fix comes from here.
 *
 * <p>Target rules: lock conflicts (deadlock, lock wait timeout, interrupted, SQLSTATE 40001)
 * {@link Action#RETRY}; a broken connection (client codes 2006/2013, server shutdown, killed
 * connection, SQLSTATE class 08, too many connections, a server in read-only mode while it starts or
 * fails over) {@link Action#RECONNECT}; anything else is {@link Action#FATAL}
 * with the exit code its vendor code names.
 *
 * <p>Source rules: the binlog connection reconnects on I/O failures and on server errors that
 * name no cause of their own; a refused login, a missing privilege and a position the source
 * cannot send are fatal.
 *
 * <p>An {@link ApplierException} is already classified: its exit code stands, and it is worth a
 * reconnect only when that code says the given side is unreachable.
 */
public final class ErrorClassifier {
    private ErrorClassifier() {
    }

    public static Classification classify(Throwable t, Side side) {
        Objects.requireNonNull(t, "t");
        Objects.requireNonNull(side, "side");
        if (t instanceof ApplierException ae) {
            return classified(ae, side);
        }
        Throwable root = rootOf(t);
        if (root instanceof ApplierException ae) {
            return classified(ae, side);
        }
        if (root instanceof BinlogFormatException) {
            // Always about the source's binlog, whichever side noticed it.
            return new Classification(Action.FATAL, ExitCode.SOURCE_UNSUPPORTED, "undecodable_binlog",
                "binlog-applier cannot decode this event: report it with the log");
        }
        if (root instanceof AuthenticationException) {
            return accessDenied(VendorCode.ER_ACCESS_DENIED_ERROR.reason(), side);
        }
        if (root instanceof ServerException se) {
            return side == Side.SOURCE ? sourceServerError(se.getErrorCode(), se.getMessage())
                : target(se.getErrorCode(), se.getSqlState(), false, se.getMessage());
        }
        if (root instanceof SQLException se) {
            return side == Side.SOURCE ? source(se) : target(se.getErrorCode(), se.getSQLState(),
                se instanceof SQLTransientConnectionException, se.getMessage());
        }
        return io(root, side);
    }

    /**
     * The throwable that explains {@code t}: the first server error (JDBC or binlog protocol) or
     * refused login in its cause chain, else the deepest cause. Wrappers (the binlog library's,
     * HikariCP's, our own) only repeat it.
     */
    public static Throwable rootOf(Throwable t) {
        Throwable cur = t;
        while (cur.getCause() != null && cur.getCause() != cur
            && !(cur instanceof ServerException) && !(cur instanceof AuthenticationException)
            && !(cur instanceof SQLException)) {
            cur = cur.getCause();
        }
        return cur;
    }

    private static Classification classified(ApplierException e, Side side) {
        return new Classification(e.exitCode() == side.unreachable() ? Action.RECONNECT : Action.FATAL, e.exitCode(),
            e.exitCode().name().toLowerCase(Locale.ROOT), "see the message");
    }

    // ---- target ----------------------------------------------------------------------------

    private static Classification target(int code, String state, boolean transientConnection, String message) {
        VendorCode v = VendorCode.of(code);
        if (v == VendorCode.ER_OPTION_PREVENTS_STATEMENT && !readOnly(message)) {
            v = null; // another option (--skip-grant-tables …): no retry helps
        }
        Action action = targetAction(v, state, transientConnection);
        ExitCode exit = v == null ? null : targetExitCode(v);
        if (exit == null) {
            exit = action == Action.RECONNECT ? ExitCode.TARGET_UNREACHABLE : ExitCode.TARGET_STATEMENT_FAILED;
        }
        String reason = v != null ? v.reason() : switch (action) {
            case RETRY -> "serialization_failure"; // SQLSTATE 40001 with a code we do not know
            case RECONNECT -> "connection_failed";
            case FATAL -> "statement_failed";
        };
        return new Classification(action, exit, reason, targetFix(exit, v));
    }

    private static Action targetAction(VendorCode v, String state, boolean transientConnection) {
        if (v == VendorCode.ER_LOCK_DEADLOCK || v == VendorCode.ER_LOCK_WAIT_TIMEOUT
            || v == VendorCode.ER_QUERY_INTERRUPTED || "40001".equals(state)) {
            return Action.RETRY;
        }
        // A target that restarts, fails over or is being promoted: read-only for a while, or full of
        // connections. A target that stays so is reported (state reconnecting, last_error) and retried.
        if (v == VendorCode.CR_SERVER_GONE_ERROR || v == VendorCode.CR_SERVER_LOST || v == VendorCode.ER_SERVER_SHUTDOWN
            || v == VendorCode.ER_CONNECTION_KILLED || v == VendorCode.ER_OPTION_PREVENTS_STATEMENT
            || v == VendorCode.ER_READ_ONLY_MODE || v == VendorCode.ER_CON_COUNT_ERROR
            || connectionState(state) || transientConnection) {
            return Action.RECONNECT;
        }
        return Action.FATAL;
    }

    /** The exit code a target error's number names by itself; null when only the action decides. */
    private static ExitCode targetExitCode(VendorCode v) {
        return switch (v) {
            // ER_KEY_NOT_FOUND is the "missing row" half of a data conflict (a BINLOG statement's row event).
            case ER_DUP_ENTRY, ER_NO_REFERENCED_ROW_2, ER_ROW_IS_REFERENCED_2, ER_KEY_NOT_FOUND ->
                ExitCode.TARGET_DATA_CONFLICT;
            case ER_NO_SUCH_TABLE, ER_BAD_FIELD_ERROR, ER_BAD_DB_ERROR -> ExitCode.TARGET_SCHEMA_MISMATCH;
            // A max_allowed_packet overflow is a value too big for the target, though the connection breaks with it.
            case ER_WARN_DATA_OUT_OF_RANGE, ER_DATA_TOO_LONG, WARN_DATA_TRUNCATED, ER_TRUNCATED_WRONG_VALUE_FOR_FIELD,
                 ER_TRUNCATED_WRONG_VALUE, ER_BAD_NULL_ERROR, ER_NET_PACKET_TOO_LARGE, ER_SLAVE_CONVERSION_FAILED,
                 ER_SLAVE_CORRUPT_EVENT -> ExitCode.TARGET_VALUE_REJECTED;
            case ER_TABLEACCESS_DENIED_ERROR, ER_COLUMNACCESS_DENIED_ERROR, ER_DBACCESS_DENIED_ERROR,
                 ER_SPECIFIC_ACCESS_DENIED_ERROR -> ExitCode.TARGET_PRIVILEGE;
            case ER_ACCESS_DENIED_ERROR -> ExitCode.TARGET_ACCESS_DENIED;
            default -> null;
        };
    }

    private static String targetFix(ExitCode exit, VendorCode v) {
        return switch (exit) {
            case TARGET_DATA_CONFLICT -> "the target's data differs from the source's; repair the target (or re-seed"
                + " it from the source) and restart";
            case TARGET_SCHEMA_MISMATCH -> "make the target's schema match the source's (SHOW CREATE TABLE on both)"
                + " and restart";
            case TARGET_VALUE_REJECTED -> v == VendorCode.ER_NET_PACKET_TOO_LARGE
                ? "raise max_allowed_packet on the target"
                : "the target column cannot hold the source's value: give it the source's type (SHOW CREATE TABLE on"
                + " both) and restart";
            case TARGET_PRIVILEGE -> "GRANT the missing privilege to the target user and restart";
            case TARGET_ACCESS_DENIED -> "check target.user and target.password";
            case TARGET_UNREACHABLE -> "check target.host/target.port and that the server is running";
            default -> "fix the cause on the target and restart; binlog-applier resumes from the last committed"
                + " position";
        };
    }

    // ---- source ----------------------------------------------------------------------------

    private static Classification source(SQLException e) {
        if (VendorCode.ER_ACCESS_DENIED_ERROR.is(e)) {
            return accessDenied(VendorCode.ER_ACCESS_DENIED_ERROR.reason(), Side.SOURCE);
        }
        if (e.getErrorCode() != 0 && !connectionState(e.getSQLState())) {
            return sourceServerError(e.getErrorCode(), e.getMessage());
        }
        // The driver's own connection failures: no server number, or SQLSTATE class 08.
        VendorCode v = VendorCode.of(e.getErrorCode());
        return unreachable(v != null ? v.reason() : "connection_failed", Side.SOURCE);
    }

    /** mysys's "File '…' not found" (not a server error number, but what MariaDB's dump thread sends). */
    private static final int EE_FILENOTFOUND = 29;

    private static Classification sourceServerError(int code, String message) {
        VendorCode v = VendorCode.of(code);
        if (v == VendorCode.ER_MASTER_FATAL_ERROR_READING_BINLOG) {
            String m = Messages.firstLine(message).toLowerCase(Locale.ROOT);
            if (m.contains("same server_id") || m.contains("same server_uuid") || m.contains("same server id")) {
                return new Classification(Action.FATAL, ExitCode.SOURCE_SERVER_ID_IN_USE, "server_id_in_use",
                    "set source.server_id to a value no other replica uses");
            }
            return new Classification(Action.FATAL, ExitCode.SOURCE_POSITION_UNAVAILABLE, "position_unavailable",
                "the binlog there was purged or never existed; re-seed the target from a fresh copy of the source and"
                + " set source.start to that copy's position (and clear the state row)");
        }
        if (v == VendorCode.ER_SPECIFIC_ACCESS_DENIED_ERROR || v == VendorCode.ER_DBACCESS_DENIED_ERROR
            || v == VendorCode.ER_TABLEACCESS_DENIED_ERROR || v == VendorCode.ER_COLUMNACCESS_DENIED_ERROR) {
            return new Classification(Action.FATAL, ExitCode.SOURCE_PRIVILEGE, v.reason(),
                "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO the user (MariaDB: also BINLOG MONITOR)");
        }
        if (v == VendorCode.ER_ACCESS_DENIED_ERROR) {
            return accessDenied(v.reason(), Side.SOURCE);
        }
        if (code == EE_FILENOTFOUND) {
            // The dump thread could not open the next binlog file its index lists: no reconnect brings it back.
            return new Classification(Action.FATAL, ExitCode.SOURCE_POSITION_UNAVAILABLE, "binlog_file_missing",
                "a binlog file listed in the source's index is missing from its disk; restore it there, or re-seed the"
                + " target from a fresh copy of the source and set source.start to that copy's position (and clear"
                + " the state row)");
        }
        // Anything else the source says may pass (a restart, a failover): reconnect.
        return new Classification(Action.RECONNECT, ExitCode.SOURCE_UNREACHABLE, "server_error",
            "binlog-applier reconnects; if the error persists, see the source's error log");
    }

    // ---- either side -------------------------------------------------------------------------

    private static Classification io(Throwable root, Side side) {
        if (root instanceof UnknownHostException) {
            return new Classification(Action.RECONNECT, side.unreachable(), "unknown_host",
                "check " + prefix(side) + ".host");
        }
        // ConnectException and NoRouteToHostException are SocketExceptions: test them first.
        if (root instanceof ConnectException) {
            return unreachable("connection_refused", side);
        }
        if (root instanceof NoRouteToHostException) {
            return unreachable("no_route_to_host", side);
        }
        if (root instanceof SocketTimeoutException) {
            return unreachable("timeout", side);
        }
        if (root instanceof EOFException) {
            return unreachable("connection_closed", side);
        }
        if (root instanceof SocketException) {
            return unreachable("socket_error", side);
        }
        if (root instanceof IOException) {
            return new Classification(Action.RECONNECT, side.unreachable(), "io_error",
                "binlog-applier reconnects; if the error persists, check the network to the " + prefix(side));
        }
        return new Classification(Action.FATAL, ExitCode.INTERNAL, "internal",
            "this is a bug: please report it with the log");
    }

    private static Classification unreachable(String reason, Side side) {
        return new Classification(Action.RECONNECT, side.unreachable(), reason,
            "check " + prefix(side) + ".host/" + prefix(side) + ".port and that the server is running");
    }

    private static Classification accessDenied(String reason, Side side) {
        return new Classification(Action.FATAL, side.accessDenied(), reason,
            "check " + prefix(side) + ".user and " + prefix(side) + ".password");
    }

    /** The configuration section of a side, for fixes that name settings. */
    private static String prefix(Side side) {
        return side.name().toLowerCase(Locale.ROOT);
    }

    /** The server refused a write because it is read-only (read_only, super_read_only, MariaDB's read-only mode). */
    public static boolean readOnlyTarget(SQLException e) {
        VendorCode v = VendorCode.of(e.getErrorCode());
        return v == VendorCode.ER_READ_ONLY_MODE || v == VendorCode.ER_OPTION_PREVENTS_STATEMENT && readOnly(e.getMessage());
    }

    /** ER_OPTION_PREVENTS_STATEMENT names the option: only --read-only (and --super-read-only) passes. */
    private static boolean readOnly(String message) {
        return message != null && message.toLowerCase(Locale.ROOT).contains("read-only");
    }

    /** SQLSTATE class 08: connection exception. */
    private static boolean connectionState(String state) {
        return state != null && state.startsWith("08");
    }
}
