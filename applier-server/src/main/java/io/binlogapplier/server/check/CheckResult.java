package io.binlogapplier.server.check;

/**
 * One row of {@code binlog-applier check}: what was checked, the verdict, and one line that says
 * what was found and, unless it passed, what to do about it.
 */
public record CheckResult(String name, Verdict verdict, String detail) {

    public enum Verdict {
        PASS,
        /** Works, with a limit the operator should know about. */
        WARN,
        /** {@code run} would stop (or could not be checked because something else failed). */
        FAIL
    }

    public static CheckResult pass(String name, String detail) {
        return new CheckResult(name, Verdict.PASS, detail);
    }

    public static CheckResult warn(String name, String detail) {
        return new CheckResult(name, Verdict.WARN, detail);
    }

    public static CheckResult fail(String name, String detail) {
        return new CheckResult(name, Verdict.FAIL, detail);
    }
}
