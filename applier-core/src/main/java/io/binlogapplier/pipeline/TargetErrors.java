package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import io.binlogapplier.tls.TlsFailures;

import java.sql.SQLException;

/** One-line messages for failures to reach or log in to the target, classified by {@link ErrorClassifier}. */
public final class TargetErrors {
    private TargetErrors() {
    }

    /**
     * A target statement error that ends the run: a lost connection as {@link #connect}, anything
     * else as one line naming {@code what} failed and {@code where} in the stream.
     */
    static ApplierException failure(SQLException e, String what, String where) {
        return ErrorClassifier.classify(e, Side.TARGET).action() == Classification.Action.RECONNECT ? connect(e)
            : Messages.targetFailure(e, what, where);
    }

    /**
     * MariaDB's "Unknown error" for a BINLOG statement of unit {@code unitId} that no retry can explain.
     *
     * @param near names the transaction it failed near, null when not known
     */
    static ApplierException binlogUnknown(long unitId, String near, SQLException e) {
        return new ApplierException(ExitCode.TARGET_STATEMENT_FAILED, "the target could not apply a row event of unit "
            + unitId + " (error 1105: Unknown error; MariaDB logs the cause in its error log as BINLOG_BASE64_EVENT)"
            + (near == null ? "" : " near " + near) + ": read the target's error log, fix the"
            + " cause (often a column type that differs from the source's) and restart", e);
    }

    public static ApplierException connect(Throwable t) {
        return connect(t, null);
    }

    /** As {@link #connect(Throwable)}; {@code address} (host:port, or null) is named in a TLS failure's message. */
    public static ApplierException connect(Throwable t, String address) {
        ApplierException tls = TlsFailures.of(t, Side.TARGET, address);
        if (tls != null) {
            return tls; // no TLS, an untrusted certificate, another host's: no reconnect helps
        }
        if (!(ErrorClassifier.rootOf(t) instanceof SQLException e)) {
            return ApplierException.of(t); // no server said anything: ours, or already an ApplierException
        }
        Classification c = ErrorClassifier.classify(e, Side.TARGET);
        if (c.exitCode() == Side.TARGET.accessDenied()) {
            return new ApplierException(c.exitCode(), "target refused the login (" + e.getMessage() + "): " + c.fix(),
                t);
        }
        if (c.action() == Classification.Action.FATAL && e.getErrorCode() != 0) {
            return Messages.targetFailure(e, "connecting", "startup");
        }
        if (ErrorClassifier.readOnlyTarget(e)) {
            // reachable, but refusing writes: the fix is not the address
            return new ApplierException(Side.TARGET.unreachable(), "the target is read-only ("
                + Messages.firstLine(e.getMessage()) + "): SET GLOBAL read_only = OFF there (or grant the target user"
                + " READ_ONLY ADMIN), then restart", t);
        }
        return new ApplierException(Side.TARGET.unreachable(), "cannot reach the target ("
            + Messages.firstLine(e.getMessage()) + "): check target.host/target.port and that the server is running",
            t);
    }
}
