package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;

import java.sql.SQLException;

/**
 * The target side of {@link ErrorClassifier} under its former names, kept for the pipeline
 * classes that still call them; new code uses {@link ErrorClassifier} and {@link Messages}.
 * Adds no rules of its own.
 */
public final class SqlErrors {

    /** What to do about an error: {@link Classification.Action} by its former name. */
    public enum Verdict {
        /** Lost a lock conflict or timed out waiting: roll back, retry the unit. */
        RETRY,
        /** The connection broke: reconnect and retry the unit. */
        RECONNECT,
        /** Retrying cannot help: stop. */
        FATAL
    }

    private SqlErrors() {
    }

    public static Verdict verdict(SQLException e) {
        return switch (ErrorClassifier.classify(e, Side.TARGET).action()) {
            case RETRY -> Verdict.RETRY;
            case RECONNECT -> Verdict.RECONNECT;
            case FATAL -> Verdict.FATAL;
        };
    }

    /** The exit code a fatal target error maps to. */
    public static ExitCode exitCode(SQLException e) {
        return ErrorClassifier.classify(e, Side.TARGET).exitCode();
    }

    /** A one-line fatal error naming what failed, where in the stream, and the fix. */
    public static ApplierException fatal(SQLException e, String what, String where) {
        return Messages.targetFailure(e, what, where);
    }

    /** The error code and the first line of an exception's message. */
    public static String firstLineOf(SQLException e) {
        return Messages.withCode(e);
    }
}
