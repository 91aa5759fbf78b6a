package io.binlogapplier.pipeline;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourceGtid;
import io.binlogapplier.schedule.Decision;
import io.binlogapplier.transaction.CommitGroup;
import io.binlogapplier.transaction.Transaction;
import io.binlogapplier.transaction.TransactionEnd;
import io.binlogapplier.transaction.TransactionHead;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class UnitInProgressTest {
    private static final Decision UNIT = new Decision(5, 0, true, 0, false, null, 0, false, false);

    /** Applies what the unit offers now, as the worker does; returns the parts in the order applied. */
    private static List<Transaction> drain(UnitInProgress u) {
        List<Transaction> out = new ArrayList<>();
        for (Transaction t = u.nextToApply(); t != null; t = u.nextToApply()) {
            out.add(t);
            u.applied();
        }
        return out;
    }

    private static Transaction tx(long seq) {
        TransactionHead head = new TransactionHead(seq, new SourceGtid.Mariadb(0, 1, seq), CommitGroup.NONE,
            new BinlogCoordinates("mysql-bin.000001", seq * 1000), 0, null);
        TransactionEnd end = new TransactionEnd(new BinlogCoordinates("mysql-bin.000001", seq * 1000 + 500),
            seq * 1_000_000L, false);
        return new Transaction(head, 0, List.of(), 100, end, false, false);
    }

    @Test
    void theTailIsAppliedAfterTheOtherPartsOnceOpenedEachInSourceOrder() {
        UnitInProgress u = new UnitInProgress();
        u.begin(UNIT, false, false);
        Transaction t1 = tx(1);
        Transaction t2 = tx(2);
        Transaction t3 = tx(3);
        Transaction t4 = tx(4);
        Transaction t5 = tx(5);
        List<Transaction> applied = new ArrayList<>();
        u.keep(t1, false, 0);
        applied.addAll(drain(u));
        u.keep(t2, true, 3);
        applied.addAll(drain(u));
        u.keep(t3, false, 0);
        u.keep(t4, true, 4);
        u.keep(t5, false, 0);
        applied.addAll(drain(u));

        assertThat(applied).as("the tail waits").containsExactly(t1, t3, t5);
        assertThat(u.tailWaiting()).isTrue();
        assertThat(u.tailWait()).as("the latest unit any tail part waits for").isEqualTo(4);
        assertThat(u.reordered()).isTrue();

        u.openTail();
        applied.addAll(drain(u));
        assertThat(applied).containsExactly(t1, t3, t5, t2, t4);
        assertThat(u.tailWaiting()).isFalse();
        assertThat(u.current()).isSameAs(t4);
    }

    @Test
    void afterARollbackThePartsGoInSourceOrderAndTheTailStillWaitsForItsUnits() {
        // A unit applied again as SQL right after its rollback (a BINLOG statement failed) has not waited for
        // the earlier units its tail needs: source order stops at the tail's first part until the tail opens.
        UnitInProgress u = new UnitInProgress();
        u.begin(UNIT, false, false);
        Transaction t1 = tx(1);
        Transaction t2 = tx(2);
        Transaction t3 = tx(3);
        u.keep(t1, false, 0);
        u.keep(t2, true, 3);
        u.keep(t3, false, 0);
        assertThat(drain(u)).containsExactly(t1, t3);

        u.rolledBack();

        assertThat(u.reordered()).as("in source order from now on").isFalse();
        assertThat(u.tailWaiting()).isTrue();
        assertThat(drain(u)).containsExactly(t1);
        u.openTail();
        assertThat(u.tailWaiting()).isFalse();
        assertThat(drain(u)).containsExactly(t2, t3);
        Transaction t4 = tx(4);
        u.keep(t4, true, 4);
        assertThat(drain(u)).as("a tail part arriving after the tail opened goes in order").containsExactly(t4);
    }

    @Test
    void aRetryAfterEveryEarlierUnitCommittedAppliesEverythingInSourceOrder() {
        UnitInProgress u = new UnitInProgress();
        u.begin(UNIT, false, false);
        Transaction t1 = tx(1);
        Transaction t2 = tx(2);
        Transaction t3 = tx(3);
        u.keep(t1, true, 3);
        u.keep(t2, false, 0);
        u.keep(t3, true, 0);
        assertThat(drain(u)).containsExactly(t2);

        u.rolledBack();
        u.openTail(); // what the worker does once every earlier unit committed

        assertThat(drain(u)).containsExactly(t1, t2, t3);
        assertThat(u.tailParts()).as("none went last").isZero();
    }

    @Test
    void aUnitWithoutATailAppliesInSourceOrderAndResetForgetsTheTail() {
        UnitInProgress u = new UnitInProgress();
        u.begin(UNIT, false, false);
        Transaction t1 = tx(1);
        Transaction t2 = tx(2);
        u.keep(t1, false, 0);
        u.keep(t2, false, 0);
        assertThat(drain(u)).containsExactly(t1, t2);
        assertThat(u.reordered()).isFalse();
        assertThat(u.tailWaiting()).isFalse();

        u.keep(tx(3), true, 2);
        u.reset();
        u.begin(UNIT, false, false);
        assertThat(u.tailWaiting()).isFalse();
        assertThat(u.tailWait()).isZero();
        assertThat(u.nextToApply()).isNull();
    }
}
