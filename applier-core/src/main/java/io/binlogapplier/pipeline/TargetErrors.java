package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.apply.SqlErrors;

import java.sql.SQLException;

/** One-line messages for failures to reach or log in to the target. */
public final class TargetErrors {
    private TargetErrors() {
    }

    public static ApplierException connect(Throwable t) {
        Throwable c = t;
        while (c != null && !(c instanceof SQLException)) {
            c = c.getCause();
        }
        if (c instanceof SQLException e) {
            if (e.getErrorCode() == 1045) {
                return new ApplierException(ExitCode.TARGET_ACCESS_DENIED, "target refused the login ("
                    + e.getMessage() + "): check target.user and target.password", t);
            }
            if (SqlErrors.verdict(e) == SqlErrors.Verdict.FATAL && e.getErrorCode() != 0) {
                return SqlErrors.fatal(e, "connecting", "startup");
            }
            return new ApplierException(ExitCode.TARGET_UNREACHABLE, "cannot reach the target (" + firstLine(e)
                + "): check target.host/target.port and that the server is running", t);
        }
        return ApplierException.of(t);
    }

    private static String firstLine(SQLException e) {
        String m = e.getMessage() == null ? "no message" : e.getMessage();
        int nl = m.indexOf('\n');
        return nl >= 0 ? m.substring(0, nl) : m;
    }
}
