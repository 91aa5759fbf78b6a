package io.binlogapplier.binlog;

import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/**
 * Turns what the source connection throws into one-line messages naming cause and fix, with the
 * exit code the failure deserves. Pure: takes the throwable, returns the verdict.
 */
public final class SourceErrors {
    /** ER_MASTER_FATAL_ERROR_READING_BINLOG: the requested position is not (or no longer) on the source. */
    static final int ER_MASTER_FATAL_ERROR_READING_BINLOG = 1236;
    static final int ER_ACCESS_DENIED = 1045;
    static final int ER_SPECIFIC_ACCESS_DENIED = 1227;
    static final int ER_DBACCESS_DENIED = 1044;

    private SourceErrors() {
    }

    /** True when the failure may clear by itself (network, restart of the source): worth a reconnect. */
    public static boolean isTransient(ApplierException e) {
        return e.exitCode() == ExitCode.SOURCE_UNREACHABLE;
    }

    /**
     * @param address host:port of the source
     * @param user the configured user
     * @param from the position we asked for, for messages about missing positions
     */
    public static ApplierException classify(Throwable t, String address, String user, String from) {
        Throwable root = rootOf(t);
        if (root instanceof BinlogFormatException) {
            return new ApplierException(ExitCode.SOURCE_UNSUPPORTED,
                "could not decode the source's binlog: " + root.getMessage(), t);
        }
        if (root instanceof AuthenticationException || isSqlCode(root, ER_ACCESS_DENIED)) {
            return new ApplierException(ExitCode.SOURCE_ACCESS_DENIED, "source " + address + " refused user '" + user
                + "' (" + firstLine(root.getMessage()) + "): check source.user and source.password", t);
        }
        if (root instanceof ServerException se) {
            return serverError(se.getErrorCode(), se.getMessage(), address, user, from, t);
        }
        if (root instanceof SQLException se && se.getErrorCode() != 0
            && !(se.getSQLState() != null && se.getSQLState().startsWith("08"))) {
            return serverError(se.getErrorCode(), se.getMessage(), address, user, from, t);
        }
        if (root instanceof UnknownHostException) {
            return new ApplierException(ExitCode.SOURCE_UNREACHABLE, "cannot resolve source host '" + root.getMessage()
                + "': check source.host", t);
        }
        if (root instanceof ConnectException || root instanceof NoRouteToHostException
            || root instanceof SocketTimeoutException || root instanceof EOFException || root instanceof SocketException
            || root instanceof SQLException) {
            return new ApplierException(ExitCode.SOURCE_UNREACHABLE, "cannot reach source " + address + " ("
                + firstLine(root.getMessage()) + "): check source.host/source.port and that the server is running", t);
        }
        if (root instanceof java.io.IOException) {
            return new ApplierException(ExitCode.SOURCE_UNREACHABLE, "lost the source " + address + " ("
                + firstLine(root.getMessage()) + ")", t);
        }
        return ApplierException.of(t);
    }

    static ApplierException serverError(int code, String message, String address, String user, String from,
                                        Throwable t) {
        String m = firstLine(message);
        if (code == ER_MASTER_FATAL_ERROR_READING_BINLOG) {
            String lower = m.toLowerCase();
            if (lower.contains("same server_id") || lower.contains("same server_uuid")
                || lower.contains("same server id")) {
                return new ApplierException(ExitCode.SOURCE_SERVER_ID_IN_USE, "source " + address + " says another replica"
                    + " uses our server_id (" + m + "): set source.server_id to a value no other replica uses", t);
            }
            return new ApplierException(ExitCode.SOURCE_POSITION_UNAVAILABLE, "source " + address + " cannot send from "
                + from + " (" + m + "): the binlog there was purged or never existed; re-seed the target from a"
                + " fresh copy of the source and set source.start to that copy's position (and clear the state row)", t);
        }
        if (code == ER_SPECIFIC_ACCESS_DENIED || code == ER_DBACCESS_DENIED) {
            return new ApplierException(ExitCode.SOURCE_PRIVILEGE, "source user '" + user + "' lacks a privilege (" + m
                + "): GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO the user (MariaDB: also BINLOG MONITOR)", t);
        }
        if (code == ER_ACCESS_DENIED) {
            return new ApplierException(ExitCode.SOURCE_ACCESS_DENIED, "source " + address + " refused user '" + user
                + "' (" + m + "): check source.user and source.password", t);
        }
        return new ApplierException(ExitCode.SOURCE_UNREACHABLE, "source " + address + " reported error " + code
            + " (" + m + ")", t);
    }

    private static boolean isSqlCode(Throwable t, int code) {
        return t instanceof SQLException se && se.getErrorCode() == code;
    }

    static Throwable rootOf(Throwable t) {
        Throwable cur = t;
        while (cur.getCause() != null && cur.getCause() != cur
            && !(cur instanceof ServerException) && !(cur instanceof AuthenticationException)
            && !(cur instanceof SQLException)) {
            cur = cur.getCause();
        }
        return cur;
    }

    static String firstLine(String s) {
        if (s == null) {
            return "no message";
        }
        int nl = s.indexOf('\n');
        return (nl >= 0 ? s.substring(0, nl) : s).trim();
    }
}
