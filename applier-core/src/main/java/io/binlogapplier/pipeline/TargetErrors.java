package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;

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

    public static ApplierException connect(Throwable t) {
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
        return new ApplierException(Side.TARGET.unreachable(), "cannot reach the target ("
            + Messages.firstLine(e.getMessage()) + "): check target.host/target.port and that the server is running",
            t);
    }
}
