package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.pipeline.RetryPolicy.ApplierError;
import io.binlogapplier.pipeline.RetryPolicy.Fail;
import io.binlogapplier.pipeline.RetryPolicy.Next;
import io.binlogapplier.pipeline.RetryPolicy.Preempted;
import io.binlogapplier.pipeline.RetryPolicy.RedoAsSql;
import io.binlogapplier.pipeline.RetryPolicy.Retry;
import io.binlogapplier.pipeline.RetryPolicy.SqlError;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** What a worker does after a failed step: every rule of {@link RetryPolicy}, without any server. */
class RetryPolicyTest {
    private static final String PART = "transaction 0-1-5 at mysql-bin.000001:400";
    private static final String LAST = "transaction 0-1-6 at mysql-bin.000001:900";

    private final RetryPolicy policy = new RetryPolicy(3);

    /** A non-barrier unit 7, first run, begun while earlier units were in flight, SQL method. */
    private static UnitBuilder unit() {
        return new UnitBuilder();
    }

    private static SqlError deadlock() {
        return SqlError.of(new SQLException("Deadlock found when trying to get lock; try restarting transaction",
            "40001", 1213));
    }

    private static SqlError duplicateKey() {
        return SqlError.of(new SQLException("Duplicate entry '1' for key 'PRIMARY'", "23000", 1062));
    }

    private static SqlError binlogUnknownError() {
        return SqlError.of(new SQLException("Unknown error", "HY000", 1105));
    }

    private static ApplierException rowMissing() {
        return new ApplierException(ExitCode.TARGET_DATA_CONFLICT, "UPDATE of `d`.`t` found no row with id=1 in "
            + PART);
    }

    // lock conflicts

    @Test
    void aPreemptedUnitIsRetriedAfterItsPredecessorsWithoutPreemptingOthers() {
        Next next = policy.next(unit().build(), new Preempted(3));

        assertThat(next).isEqualTo(new Retry("an earlier unit (3) waits for one of its locks", "preempted", null,
            null));
        assertThat(((Retry) next).laterUnitsGiveWay()).isFalse();
    }

    @Test
    void aDeadlockTheServerReportedIsRetriedAndMakesLaterUnitsGiveWay() {
        SqlError deadlock = deadlock();

        Next next = policy.next(unit().build(), deadlock);

        assertThat(next).isEqualTo(new Retry("1213: Deadlock found when trying to get lock; try restarting"
            + " transaction", "deadlock", deadlock.error(), null));
        assertThat(((Retry) next).laterUnitsGiveWay()).isTrue();
    }

    @Test
    void aLockWaitTimeoutIsRetriedWithItsOwnReason() {
        Next next = policy.next(unit().build(), SqlError.of(new SQLException("Lock wait timeout exceeded", "HY000",
            1205)));

        assertThat(next).isInstanceOf(Retry.class);
        assertThat(((Retry) next).reason()).isEqualTo("lock_wait_timeout");
        assertThat(((Retry) next).why()).isEqualTo("1205: Lock wait timeout exceeded");
    }

    @Test
    void theLastRetryAllowedIsStillMade() {
        assertThat(policy.next(unit().attempts(2).build(), new Preempted(3))).isInstanceOf(Retry.class);
    }

    @Test
    void aUnitRetriedAsOftenAsAllowedGivesUpNamingTheLastConflict() {
        SqlError deadlock = deadlock();

        Next next = policy.next(unit().attempts(3).build(), deadlock);

        Fail fail = (Fail) next;
        assertThat(fail.error().exitCode()).isEqualTo(ExitCode.TARGET_STATEMENT_FAILED);
        assertThat(fail.error().getMessage()).isEqualTo("gave up on unit 7 after 3 retries (1213: Deadlock found when"
            + " trying to get lock; try restarting transaction): check the target for locks held by other sessions or"
            + " raise apply.retries");
        assertThat(fail.error().getCause()).isSameAs(deadlock.error());
        assertThat(fail.refused().reason()).isEqualTo("deadlock");
    }

    @Test
    void noRetriesAllowedFailsTheFirstLockConflict() {
        Next next = new RetryPolicy(0).next(unit().build(), new Preempted(3));

        assertThat(((Fail) next).error().getMessage()).startsWith("gave up on unit 7 after 0 retries (an earlier"
            + " unit (3) waits for one of its locks)");
        assertThat(((Fail) next).error().getCause()).isNull();
    }

    @Test
    void aBarrierIsNeverRetriedEvenOnItsFirstLockConflict() {
        SqlError deadlock = deadlock();

        Next next = policy.next(unit().barrier().build(), deadlock);

        Fail fail = (Fail) next;
        assertThat(fail.error().exitCode()).isEqualTo(ExitCode.TARGET_STATEMENT_FAILED);
        assertThat(fail.error().getMessage()).isEqualTo("unit 7 (applied alone) failed (1213: Deadlock found when"
            + " trying to get lock; try restarting transaction): another session on the target holds locks the"
            + " applier needs; stop it and restart");
        assertThat(fail.error().getCause()).isSameAs(deadlock.error());
    }

    @Test
    void aPreemptedBarrierFailsToo() {
        Fail fail = (Fail) policy.next(unit().barrier().build(), new Preempted(3));

        assertThat(fail.error().getMessage()).startsWith("unit 7 (applied alone) failed (an earlier unit (3) waits"
            + " for one of its locks)");
    }

    // lost connection

    @Test
    void aLostConnectionFailsAsUnreachableWithoutRetrying() {
        Next next = policy.next(unit().build(), SqlError.of(new SQLException("Communications link failure", "08S01",
            0)));

        assertThat(((Fail) next).error().exitCode()).isEqualTo(ExitCode.TARGET_UNREACHABLE);
        assertThat(((Fail) next).refused()).isNull();
    }

    // BINLOG 'Unknown error'

    @Test
    void aBinlogUnknownErrorIsRedoneAsSqlToLearnTheCause() {
        assertThat(policy.next(unit().spanning().build(), binlogUnknownError())).isEqualTo(new RedoAsSql(null));
    }

    @Test
    void aBinlogUnknownErrorRedoneAsSqlAlreadyFailsNearTheLastPart() {
        SqlError unknown = binlogUnknownError();

        Fail fail = (Fail) policy.next(unit().startedAlone().spanning().redoneAsSql().build(), unknown);

        assertThat(fail.error().exitCode()).isEqualTo(ExitCode.TARGET_STATEMENT_FAILED);
        assertThat(fail.error().getMessage()).isEqualTo("the target could not apply a row event of unit 7 (error"
            + " 1105: Unknown error; MariaDB logs the cause in its error log as BINLOG_BASE64_EVENT) near " + LAST
            + ": read the target's error log, fix the cause (often a column type that differs from the source's) and"
            + " restart");
        assertThat(fail.error().getCause()).isSameAs(unknown.error());
    }

    /**
     * A trigger table's rows go as BINLOG statements in the SQL redo too, so the redo can fail the same
     * way; a unit that ran beside earlier ones is then applied once more after them, as for a data
     * conflict, before the error stops the applier (it failed at once).
     */
    @Test
    void aBinlogUnknownErrorAgainAfterTheSqlRedoIsRetriedOnceAfterTheEarlierUnits() {
        Next next = policy.next(unit().spanning().redoneAsSql().build(), binlogUnknownError());

        assertThat(next).isInstanceOf(Retry.class);
        assertThat(((Retry) next).reason()).isEqualTo("data_conflict_in_flight");
        assertThat(policy.next(unit().spanning().redoneAsSql().serialRetried().build(), binlogUnknownError()))
            .isInstanceOf(Fail.class);
    }

    @Test
    void aBinlogUnknownErrorOfAUnitWithoutKeptPartsNamesNoPart() {
        Fail fail = (Fail) policy.next(unit().serialRetried().spanning().redoneAsSql().noParts().build(),
            binlogUnknownError());

        assertThat(fail.error().getMessage()).contains("BINLOG_BASE64_EVENT): read the target's error log");
    }

    // data conflicts

    @Test
    void aDuplicateKeyWhileEarlierUnitsWereInFlightIsRetriedOnceAfterThem() {
        Retry retry = (Retry) policy.next(unit().build(), duplicateKey());

        assertThat(retry.why()).isEqualTo("data conflict while earlier units were in flight");
        assertThat(retry.reason()).isEqualTo("data_conflict_in_flight");
        assertThat((Throwable) retry.cause()).isNull();
        assertThat(retry.laterUnitsGiveWay()).isFalse();
        assertThat(retry.inFlightConflict().exitCode()).isEqualTo(ExitCode.TARGET_DATA_CONFLICT);
        assertThat(retry.inFlightConflict().getMessage()).startsWith("applying failed on the target (error 1062:"
            + " Duplicate entry '1' for key 'PRIMARY') in " + PART + ": ");
    }

    @Test
    void aConflictTheApplierFoundWhileEarlierUnitsWereInFlightIsRetriedOnceAfterThem() {
        ApplierException missing = rowMissing();

        Next next = policy.next(unit().build(), new ApplierError(missing));

        assertThat(next).isEqualTo(new Retry("data conflict while earlier units were in flight",
            "data_conflict_in_flight", null, missing));
    }

    @Test
    void aConflictInAUnitThatStartedAloneIsRealUnderSql() {
        ApplierException missing = rowMissing();

        Fail fail = (Fail) policy.next(unit().startedAlone().build(), new ApplierError(missing));

        assertThat(fail.error()).isSameAs(missing);
        assertThat(fail.refused()).isNull();
    }

    @Test
    void aConflictAfterTheSerialRetryIsRealUnderSql() {
        Fail fail = (Fail) policy.next(unit().serialRetried().build(), duplicateKey());

        assertThat(fail.error().exitCode()).isEqualTo(ExitCode.TARGET_DATA_CONFLICT);
        assertThat(fail.error().getMessage()).startsWith("applying failed on the target (error 1062: Duplicate entry"
            + " '1' for key 'PRIMARY') in " + PART + ": ");
    }

    @Test
    void aRealConflictUnderTheBinlogMethodIsRedoneAsSqlToNameTheRow() {
        ApplierException missing = rowMissing();

        Next next = policy.next(unit().startedAlone().spanning().build(), new ApplierError(missing));

        assertThat(next).isEqualTo(new RedoAsSql(missing));
    }

    @Test
    void aDuplicateKeyAfterTheSerialRetryUnderTheBinlogMethodIsRedoneAsSql() {
        RedoAsSql redo = (RedoAsSql) policy.next(unit().serialRetried().spanning().build(), duplicateKey());

        assertThat(redo.conflict().exitCode()).isEqualTo(ExitCode.TARGET_DATA_CONFLICT);
    }

    @Test
    void aRealConflictOfAUnitAlreadyRedoneAsSqlFailsWithIt() {
        ApplierException missing = rowMissing();

        Fail fail = (Fail) policy.next(unit().startedAlone().spanning().redoneAsSql().build(),
            new ApplierError(missing));

        assertThat(fail.error()).isSameAs(missing);
    }

    @Test
    void aBarriersConflictIsNeitherRetriedNorRedone() {
        ApplierException missing = rowMissing();

        Fail fail = (Fail) policy.next(unit().barrier().spanning().build(), new ApplierError(missing));

        assertThat(fail.error()).isSameAs(missing);
        assertThat(fail.refused()).isNull();
    }

    @Test
    void aConflictInFlightWithNoRetryLeftGivesUpAndKeepsTheConflict() {
        ApplierException missing = rowMissing();

        Fail fail = (Fail) policy.next(unit().attempts(3).build(), new ApplierError(missing));

        assertThat(fail.error().getMessage()).startsWith("gave up on unit 7 after 3 retries (data conflict while"
            + " earlier units were in flight)");
        assertThat(fail.refused().inFlightConflict()).isSameAs(missing);
    }

    // other failures

    @Test
    void anotherFatalStatementErrorFailsNamingThePart() {
        Fail fail = (Fail) policy.next(unit().spanning().build(), SqlError.of(new SQLException(
            "Table 'd.t' doesn't exist", "42S02", 1146)));

        assertThat(fail.error().exitCode()).isEqualTo(ExitCode.TARGET_SCHEMA_MISMATCH);
        assertThat(fail.error().getMessage()).startsWith("applying failed on the target (error 1146: Table 'd.t'"
            + " doesn't exist) in " + PART + ": ");
    }

    @Test
    void aFatalStatementErrorOfAUnitWithoutKeptPartsNamesTheUnit() {
        Fail fail = (Fail) policy.next(unit().noParts().build(), SqlError.of(new SQLException(
            "Table 'd.t' doesn't exist", "42S02", 1146)));

        assertThat(fail.error().getMessage()).contains(") in unit 7: ");
    }

    @Test
    void anApplierErrorOtherThanADataConflictFailsWithItEvenWhileEarlierUnitsWereInFlight() {
        ApplierException stateGone = new ApplierException(ExitCode.STATE_INVALID, "the state row disappeared");

        Fail fail = (Fail) policy.next(unit().spanning().build(), new ApplierError(stateGone));

        assertThat(fail.error()).isSameAs(stateGone);
    }

    // the flag a new way of applying extends

    @Test
    void onlyAUnitSentAsBinlogAndNotYetRedoneCanNameTheRowByRedoingIt() {
        assertThat(unit().spanning().build().rowByRowWouldNameTheRow()).isTrue();
        assertThat(unit().spanning().redoneAsSql().build().rowByRowWouldNameTheRow()).isFalse();
        assertThat(unit().build().rowByRowWouldNameTheRow()).isFalse();
    }

    /** Builds a {@link RetryPolicy.Unit}; each method turns one fact on. */
    private static final class UnitBuilder {
        private boolean barrier;
        private int attempts;
        private boolean startedAlone;
        private boolean serialRetried;
        private boolean spanning;
        private boolean redoneAsSql;
        private boolean noParts;

        UnitBuilder barrier() {
            barrier = true;
            return this;
        }

        UnitBuilder attempts(int n) {
            attempts = n;
            return this;
        }

        UnitBuilder startedAlone() {
            startedAlone = true;
            return this;
        }

        UnitBuilder serialRetried() {
            serialRetried = true;
            return this;
        }

        UnitBuilder spanning() {
            spanning = true;
            return this;
        }

        UnitBuilder redoneAsSql() {
            redoneAsSql = true;
            return this;
        }

        UnitBuilder noParts() {
            noParts = true;
            return this;
        }

        RetryPolicy.Unit build() {
            return new RetryPolicy.Unit(7, barrier, attempts, startedAlone, serialRetried, spanning, redoneAsSql,
                noParts ? null : PART, noParts ? null : LAST);
        }
    }
}
