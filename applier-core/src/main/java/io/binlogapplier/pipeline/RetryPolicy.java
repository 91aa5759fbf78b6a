package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.apply.TransactionApplier;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;

import java.sql.SQLException;

/**
 * What a worker does when a step of its unit failed: retry the unit after every earlier unit
 * committed, apply it again as SQL, or fail. Pure: it takes what happened and returns the decision,
 * which {@link ApplyWorker} carries out; it touches no connection and keeps no state.
 *
 * <p>The rules, in the order they apply:
 * <ul>
 *   <li>Preempted (an earlier unit waits for this unit's locks), or a lock conflict the server
 *       reported (deadlock, lock-wait timeout): retry after the predecessors. A reported one also
 *       makes every later unit give way, since without the conflict monitor's help one of them may
 *       hold what this unit waits for.</li>
 *   <li>MariaDB's "Unknown error" from a BINLOG statement: apply the unit again as SQL, which reports
 *       the cause in full; if it already was, fail.</li>
 *   <li>A lost connection: fail as unreachable (the pipeline reconnects).</li>
 *   <li>A data conflict (row missing, duplicated, unreferenced) while earlier units were in flight:
 *       their doing, perhaps (a foreign key, a key we do not know), so retry once after them before
 *       calling it real. Otherwise, if redoing the unit row by row can name the row, do that; else
 *       fail with it. Any other fatal error fails.</li>
 *   <li>Every retry is bounded by {@code apply.retries}; a barrier is never retried (its parts are
 *       not kept and nothing runs beside it).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
final class RetryPolicy {
    /** The retry reason ({@link PipelineMetrics#retried}) of a unit applied again as SQL ({@link RedoAsSql}). */
    static final String REDONE_AS_SQL = "redone_as_sql";

    private final int retries;

    /** @param retries how many times a unit may be retried ({@code apply.retries}) */
    RetryPolicy(int retries) {
        this.retries = retries;
    }

    /**
     * The unit a step failed in, as far as the decision needs it.
     *
     * @param id the unit's id
     * @param barrier it runs alone and its parts are not kept
     * @param attempts how many times it was retried so far
     * @param startedAlone every earlier unit had committed when it began
     * @param serialRetried it was already retried after every earlier unit for a data conflict
     * @param spanning its rows went in statements that span rows of several transactions (BINLOG
     *     statements, or the SQL method's net effects), which
     *     hold many source transactions and name neither the one nor the row that failed
     * @param redoneAsSql it is already being applied again as SQL, row by row
     * @param part names the part being applied, null when the unit keeps none
     * @param lastPart names the newest part the unit keeps, null when none
     */
    record Unit(long id, boolean barrier, int attempts, boolean startedAlone, boolean serialRetried,
                boolean spanning, boolean redoneAsSql, String part, String lastPart) {

        /**
         * Applying the unit again row by row, as SQL, would name the row (and the transaction) a
         * data conflict met, where its first run could not. Another way of applying that names no
         * row (one statement for many rows, say) is one more flag here.
         */
        boolean rowByRowWouldNameTheRow() {
            return spanning && !redoneAsSql;
        }
    }

    /** What went wrong in a step. */
    sealed interface Failure permits Preempted, SqlError, ApplierError {
    }

    /** An earlier unit, {@code blockedUnit}, waits for a lock this unit holds. */
    record Preempted(long blockedUnit) implements Failure {
    }

    /**
     * The target refused a statement.
     *
     * @param binlogUnknownError MariaDB's "Unknown error" for a BINLOG statement, whose cause is
     *     only in the server's error log
     */
    record SqlError(SQLException error, Classification classification, boolean binlogUnknownError)
        implements Failure {

        static SqlError of(SQLException e) {
            return new SqlError(e, ErrorClassifier.classify(e, Side.TARGET), TransactionApplier.binlogUnknownError(e));
        }
    }

    /** The applier's own verdict on a statement that ran (a row it changed was missing, say). */
    record ApplierError(ApplierException error) implements Failure {
    }

    /** What to do next. */
    sealed interface Next permits Retry, RedoAsSql, Fail {
    }

    /**
     * Roll back, wait until every earlier unit committed, apply the unit again from its kept parts.
     *
     * @param why for messages: what the unit lost
     * @param reason the retry's metrics label
     * @param cause the server's error, null when none (preempted, data conflict)
     * @param inFlightConflict the data conflict earlier units may explain, null for a lock conflict
     */
    record Retry(String why, String reason, SQLException cause, ApplierException inFlightConflict) implements Next {

        /** A lock conflict the server reported: a later unit may hold what this one waits for. */
        boolean laterUnitsGiveWay() {
            return cause != null;
        }
    }

    /**
     * Roll back and apply the unit again as SQL, row by row.
     *
     * @param conflict the data conflict whose row SQL will name; null when a BINLOG statement failed
     *     with "Unknown error" and SQL is to report the cause
     */
    record RedoAsSql(ApplierException conflict) implements Next {
    }

    /**
     * Stop the pipeline with {@code error}.
     *
     * @param refused the retry the bound or a barrier ruled out, null when none was wanted
     */
    record Fail(ApplierException error, Retry refused) implements Next {
    }

    Next next(Unit u, Failure f) {
        if (f instanceof Preempted p) {
            return bounded(u, new Retry("an earlier unit (" + p.blockedUnit() + ") waits for one of its locks",
                "preempted", null, null));
        }
        if (f instanceof ApplierError a) {
            return afterFatal(u, a.error());
        }
        SqlError s = (SqlError) f;
        SQLException e = s.error();
        if (s.binlogUnknownError()) {
            if (!u.redoneAsSql()) {
                return new RedoAsSql(null);
            }
            ApplierException unknown = TargetErrors.binlogUnknown(u.id(), u.lastPart(), e);
            // Redone as SQL and still a BINLOG failure: the rows of tables with triggers on the target go as
            // BINLOG statements in the SQL redo too. MariaDB reports a duplicate key there as this error, which
            // an earlier unit still in flight may explain: once after the earlier units, as for a conflict.
            return orderingMayExplain(u) ? bounded(u, new Retry("a BINLOG statement failed while earlier units were"
                + " in flight", "data_conflict_in_flight", null, unknown)) : new Fail(unknown, null);
        }
        switch (s.classification().action()) {
            case FATAL:
                return afterFatal(u, Messages.targetFailure(e, "applying", u.part() == null ? "unit " + u.id()
                    : u.part()));
            case RECONNECT:
                return new Fail(TargetErrors.connect(e), null);
            case RETRY:
            default:
                return bounded(u, new Retry(Messages.withCode(e), s.classification().reason(), e, null));
        }
    }

    private Next afterFatal(Unit u, ApplierException e) {
        if (orderingMayExplain(u, e)) {
            return bounded(u, new Retry("data conflict while earlier units were in flight", "data_conflict_in_flight",
                null, e));
        }
        if (mayNameTheRow(u, e)) {
            return new RedoAsSql(e);
        }
        return new Fail(e, null);
    }

    /** A data conflict is only real once the unit has run with every earlier unit committed. */
    private static boolean orderingMayExplain(Unit u, ApplierException e) {
        return e.exitCode() == ExitCode.TARGET_DATA_CONFLICT && orderingMayExplain(u);
    }

    /** The unit ran beside earlier units and has not yet been applied after them. */
    private static boolean orderingMayExplain(Unit u) {
        return !u.barrier() && !u.startedAlone() && !u.serialRetried();
    }

    /** A data conflict of a unit whose parts are kept, that row by row, as SQL, can tell which row. */
    private static boolean mayNameTheRow(Unit u, ApplierException e) {
        return e.exitCode() == ExitCode.TARGET_DATA_CONFLICT && u.rowByRowWouldNameTheRow() && !u.barrier();
    }

    private Next bounded(Unit u, Retry r) {
        if (u.barrier()) {
            return new Fail(new ApplierException(ExitCode.TARGET_STATEMENT_FAILED, "unit " + u.id() + " (applied"
                + " alone) failed (" + r.why() + "): another session on the target holds locks the applier needs;"
                + " stop it and restart", r.cause()), r);
        }
        if (u.attempts() >= retries) {
            return new Fail(new ApplierException(ExitCode.TARGET_STATEMENT_FAILED, "gave up on unit " + u.id()
                + " after " + retries + " retries (" + r.why() + "): check the target for locks held by other"
                + " sessions or raise apply.retries", r.cause()), r);
        }
        return r;
    }
}
