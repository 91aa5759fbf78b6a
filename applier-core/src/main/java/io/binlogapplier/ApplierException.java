package io.binlogapplier;

/**
 * A failure that stops binlog-applier, carrying the exit code and a one-line message that names
 * the cause and the fix. Expected failures (bad input, unreachable servers) are logged as that
 * one line without a stack trace; {@link ExitCode#INTERNAL} ones with it.
 */
public final class ApplierException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ExitCode exitCode;
    /** The source transaction that failed, when one did; set once by the worker that applied it. */
    private volatile io.binlogapplier.position.TransactionRef transaction;

    public ApplierException(ExitCode exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public ApplierException(ExitCode exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public ExitCode exitCode() {
        return exitCode;
    }

    /** The source transaction whose apply failed; null when the failure is not one transaction's. */
    public io.binlogapplier.position.TransactionRef transaction() {
        return transaction;
    }

    /** Names the transaction that failed, unless one is named already; returns this. */
    public ApplierException inTransaction(io.binlogapplier.position.TransactionRef t) {
        if (transaction == null) {
            transaction = t;
        }
        return this;
    }

    /** Wraps anything into an ApplierException, keeping one that already is. */
    public static ApplierException of(Throwable t) {
        if (t instanceof ApplierException ae) {
            return ae;
        }
        return new ApplierException(ExitCode.INTERNAL, "internal error: " + t, t);
    }
}
