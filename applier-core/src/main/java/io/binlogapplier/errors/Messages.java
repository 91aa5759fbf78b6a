package io.binlogapplier.errors;

import io.binlogapplier.ApplierException;

import java.sql.SQLException;

/**
 * Helpers for the one-line failure messages binlog-applier prints: server messages can span lines
 * (MariaDB appends context, drivers append stack-like detail), and a log line or a check row must
 * not.
 */
public final class Messages {
    private Messages() {
    }

    /** The first line of a message, trimmed; "no message" for null. */
    public static String firstLine(String s) {
        if (s == null) {
            return "no message";
        }
        int nl = s.indexOf('\n');
        return (nl >= 0 ? s.substring(0, nl) : s).trim();
    }

    /**
     * The first line of a throwable's message; for one without a message its {@code toString()}
     * (the class name), which says more than "no message".
     */
    public static String firstLine(Throwable t) {
        return t.getMessage() == null ? t.toString() : firstLine(t.getMessage());
    }

    /** "code: first line", how a target error is quoted in retry messages. */
    public static String withCode(SQLException e) {
        return e.getErrorCode() + ": " + firstLine(e.getMessage());
    }

    /**
     * A fatal target error as one line naming what failed, where in the stream, the server's error
     * and the fix; its exit code is {@link ErrorClassifier}'s.
     *
     * @param what what was sent, e.g. "INSERT into `d`.`t`"
     * @param where where in the stream, e.g. "transaction 0-1-5 at mysql-bin.000001:400"
     */
    public static ApplierException targetFailure(SQLException e, String what, String where) {
        Classification c = ErrorClassifier.classify(e, Side.TARGET);
        return new ApplierException(c.exitCode(), what + " failed on the target (error " + e.getErrorCode() + ": "
            + firstLine(e.getMessage()) + ") in " + where + ": " + c.fix(), e);
    }
}
