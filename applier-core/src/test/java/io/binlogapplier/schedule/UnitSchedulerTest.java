package io.binlogapplier.schedule;

import io.binlogapplier.config.ApplyMode;
import io.binlogapplier.position.GtidTracker;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.transaction.Transaction;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class UnitSchedulerTest {
    private static final UnitBounds BIG = new UnitBounds(1000, 1L << 30, Long.MAX_VALUE);
    private static final TransactionTraits PLAIN = TransactionTraits.ordinary(TransactionTraits.NO_KEYS);

    private static UnitScheduler scheduler(ApplyMode mode, int workers, UnitBounds bounds) {
        return new UnitScheduler(mode, workers, bounds, new GtidTracker(""), SourcePosition.ResumeBy.FILE);
    }

    /** Schedules the transactions back to back as if all were already on the ring. */
    private static List<Decision> run(UnitScheduler s, List<Transaction> txs, List<TransactionTraits> traits,
                                      long committed) {
        List<Decision> out = new ArrayList<>();
        for (int i = 0; i < txs.size(); i++) {
            UnitScheduler.Lookahead next = i + 1 < txs.size()
                ? new UnitScheduler.Lookahead.Next(txs.get(i + 1), traits.get(i + 1)) : null;
            out.add(s.schedule(txs.get(i), traits.get(i), next, 0, committed));
        }
        return out;
    }

    /** What a unit's first transaction waits for: at the unit's start, or in its tail. */
    private static long firstWait(Decision d) {
        return d.deferred() ? d.joinWait() : d.waitFor();
    }

    private static List<TransactionTraits> plain(int n) {
        List<TransactionTraits> t = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            t.add(PLAIN);
        }
        return t;
    }

    @Test
    void oneWorkerPacksEverythingAvailableIntoOneUnit() {
        List<Transaction> txs = List.of(Transactions.mariadb(1, 10), Transactions.mariadb(2, 11),
            Transactions.mariadb(3, 12));
        List<Decision> d = run(scheduler(ApplyMode.CONSERVATIVE, 1, BIG), txs, plain(3), 0);

        assertThat(d).extracting(Decision::unitId).containsOnly(1L);
        assertThat(d.get(0).unitStart()).isTrue();
        assertThat(d.get(2).unitEnd()).isTrue();
        assertThat(d.get(2).transactions()).isEqualTo(3);
        assertThat(d.get(2).positionAfter().coordinates().toString()).isEqualTo("mysql-bin.000001:3500");
        assertThat(d.get(2).positionAfter().gtids()).isEqualTo("0-1-3");
    }

    @Test
    void aUnitEndsWhenTheRingHasNothingMore() {
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 1, BIG);
        Decision first = s.schedule(Transactions.mariadb(1, 10), PLAIN, null, 0, 0);
        Decision second = s.schedule(Transactions.mariadb(2, 10), PLAIN, null, 0, 0);

        assertThat(first.unitEnd()).isTrue();
        assertThat(second.unitId()).isEqualTo(2);
        assertThat(second.unitStart()).isTrue();
    }

    @Test
    void blockCommitBoundsCutUnits() {
        List<Transaction> txs = numbered(1, 7);
        List<Decision> byCount = run(scheduler(ApplyMode.CONSERVATIVE, 1, new UnitBounds(3, 1L << 30, Long.MAX_VALUE)),
            txs, plain(7), 0);
        assertThat(byCount).extracting(Decision::unitId).containsExactly(1L, 1L, 1L, 2L, 2L, 2L, 3L);

        List<Decision> byBytes = run(scheduler(ApplyMode.CONSERVATIVE, 1, new UnitBounds(100, 250, Long.MAX_VALUE)),
            txs, plain(7), 0);
        assertThat(byBytes).extracting(Decision::unitId).containsExactly(1L, 1L, 2L, 2L, 3L, 3L, 4L);
    }

    @Test
    void unitsHoldMoreTransactionsWhileOneWorkerTakesThem() {
        List<Transaction> txs = numbered(1, 7);
        UnitBounds bounds = new UnitBounds(2, 5, 1L << 30, Long.MAX_VALUE);
        assertThat(run(scheduler(ApplyMode.OPTIMISTIC, 1, bounds), txs, plain(7), 0))
            .as("one worker configured").extracting(Decision::unitId).containsExactly(1L, 1L, 1L, 1L, 1L, 2L, 2L);

        UnitScheduler auto = scheduler(ApplyMode.OPTIMISTIC, 4, bounds);
        auto.activeWorkers(1);
        assertThat(run(auto, txs, plain(7), 0))
            .as("one of four taking units").extracting(Decision::unitId).containsExactly(1L, 1L, 1L, 1L, 1L, 2L, 2L);

        List<Transaction> later = numbered(8, 12);
        auto.activeWorkers(4);
        assertThat(run(auto, later, plain(5), 0))
            .as("four taking units").extracting(Decision::unitId).containsExactly(3L, 3L, 4L, 4L, 5L);
    }

    @Test
    void aUnitOlderThanTheDelayBoundIsCut() {
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 1, new UnitBounds(100, 1L << 30, 1_000));
        Transaction t1 = Transactions.mariadb(1, 1);
        Transaction t2 = Transactions.mariadb(2, 2);
        Decision d1 = s.schedule(t1, PLAIN, new UnitScheduler.Lookahead.Next(t2, PLAIN), 5_000, 0);
        assertThat(d1.unitEnd()).isFalse();
        Decision d2 = s.schedule(t2, PLAIN, new UnitScheduler.Lookahead.Next(Transactions.mariadb(3, 3), PLAIN),
            6_000, 0);
        assertThat(d2.unitEnd()).as("the unit started at 5000 ns and it is now 6000 ns").isTrue();
    }

    @Test
    void aBarrierRunsAloneAfterEverythingBeforeItAndEverythingAfterWaitsForIt() {
        List<Transaction> txs = List.of(Transactions.mariadb(1, 5), Transactions.mariadb(2, 5),
            Transactions.mariadb(3, 6), Transactions.mariadb(4, 7), Transactions.mariadb(5, 7));
        List<TransactionTraits> traits = new ArrayList<>(plain(5));
        traits.set(2, TransactionTraits.barrier("DDL", true));
        List<Decision> d = run(scheduler(ApplyMode.CONSERVATIVE, 4, BIG), txs, traits, 0);

        assertThat(d).extracting(Decision::unitId).containsExactly(1L, 1L, 2L, 3L, 3L);
        assertThat(d.get(2).barrier()).isTrue();
        assertThat(d.get(2).pending()).isTrue();
        assertThat(d.get(2).waitFor()).isEqualTo(1);
        assertThat(d.get(2).unitEnd()).isTrue();
        assertThat(d.get(3).waitFor()).isEqualTo(2);
    }

    @Test
    void conservativeMariadbRunsOneCommitGroupInParallelAndWaitsForThePreviousGroup() {
        // Group 7 = {1, 2}; group 8 = {3, 4}. The ring hands them over one at a time, so each becomes a unit.
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 4, BIG);
        Decision d1 = s.schedule(Transactions.mariadb(1, 7), PLAIN, null, 0, 0);
        Decision d2 = s.schedule(Transactions.mariadb(2, 7), PLAIN, null, 0, 0);
        Decision d3 = s.schedule(Transactions.mariadb(3, 8), PLAIN, null, 0, 0);
        Decision d4 = s.schedule(Transactions.mariadb(4, 8), PLAIN, null, 0, 0);

        assertThat(d1.waitFor()).isZero();
        assertThat(d2.waitFor()).as("same commit group as unit 1: no wait").isZero();
        assertThat(d3.waitFor()).as("new group waits for the whole previous group").isEqualTo(2);
        assertThat(d4.waitFor()).isEqualTo(2);
        assertThat(List.of(d1.worker(), d2.worker())).doesNotHaveDuplicates();
    }

    @Test
    void conservativeExtendsAUnitIntoTheNextGroupWhenItStartedAtTheGroupsStart() {
        // The next group needs all of group 7 done: inside one unit, running t1 and t2 first does that.
        List<Transaction> txs = List.of(Transactions.mariadb(1, 7), Transactions.mariadb(2, 7),
            Transactions.mariadb(3, 8));
        List<Decision> d = run(scheduler(ApplyMode.CONSERVATIVE, 4, BIG), txs, plain(3), 0);

        assertThat(d).extracting(Decision::unitId).containsExactly(1L, 1L, 1L);
    }

    @Test
    void conservativeCutsAUnitAtAGroupBoundaryWhenJoiningWouldAddAWait() {
        // Unit 2 holds only the second half of group 7; t3 (group 8) also needs unit 1, which unit 2 never waited for.
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 4, BIG);
        s.schedule(Transactions.mariadb(1, 7), PLAIN, null, 0, 0);
        Transaction t2 = Transactions.mariadb(2, 7);
        Transaction t3 = Transactions.mariadb(3, 8);
        Decision d2 = s.schedule(t2, PLAIN, new UnitScheduler.Lookahead.Next(t3, PLAIN), 0, 0);
        Decision d3 = s.schedule(t3, PLAIN, null, 0, 0);

        assertThat(d2.waitFor()).isZero();
        assertThat(d2.unitEnd()).isTrue();
        assertThat(d3.unitId()).isEqualTo(3);
        assertThat(d3.waitFor()).isEqualTo(2);
    }

    @Test
    void logicalClockWaitsForTheLastCommittedTransactionAndRestartsAtANewFile() {
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 4, BIG);
        Decision a = s.schedule(Transactions.mysql(1, "binlog.000001", 0, 1), PLAIN, null, 0, 0);
        Decision b = s.schedule(Transactions.mysql(2, "binlog.000001", 0, 2), PLAIN, null, 0, 0);
        Decision c = s.schedule(Transactions.mysql(3, "binlog.000001", 2, 3), PLAIN, null, 0, 0);
        Decision d = s.schedule(Transactions.mysql(4, "binlog.000001", 1, 4), PLAIN, null, 0, 0);
        Decision e = s.schedule(Transactions.mysql(5, "binlog.000002", 0, 1), PLAIN, null, 0, 0);
        Decision f = s.schedule(Transactions.mysql(6, "binlog.000002", 0, 2), PLAIN, null, 0, 0);

        assertThat(a.waitFor()).isZero();
        assertThat(b.waitFor()).as("last_committed 0: independent").isZero();
        assertThat(c.waitFor()).as("waits for sequence_number 2").isEqualTo(2);
        assertThat(d.waitFor()).as("waits for sequence_number 1").isEqualTo(1);
        assertThat(e.waitFor()).as("sequence numbers restart: wait for the whole previous file").isEqualTo(4);
        assertThat(f.waitFor()).as("last_committed 0 in the new file still follows the file barrier").isEqualTo(4);
    }

    @Test
    void optimisticWaitsOnlyForTheLastUnitSharingAKey() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        Decision a = s.schedule(Transactions.mariadb(1, 1), TransactionTraits.ordinary(new long[] {10, 11}), null, 0, 0);
        Decision b = s.schedule(Transactions.mariadb(2, 2), TransactionTraits.ordinary(new long[] {20}), null, 0, 0);
        Decision c = s.schedule(Transactions.mariadb(3, 3), TransactionTraits.ordinary(new long[] {11, 30}), null, 0, 0);
        Decision d = s.schedule(Transactions.mariadb(4, 4), TransactionTraits.ordinary(new long[] {20, 11}), null, 0, 0);

        assertThat(firstWait(a)).isZero();
        assertThat(firstWait(b)).as("different commit groups, no shared key").isZero();
        assertThat(firstWait(c)).as("shares key 11 with unit 1").isEqualTo(1);
        assertThat(firstWait(d)).as("key 11 last written by unit 3, key 20 by unit 2").isEqualTo(3);
        assertThat(c.deferred()).as("t3 starts its unit's tail; the unit itself starts at once").isTrue();
        assertThat(c.waitFor()).isZero();
        assertThat(c.worker()).as("on a worker without a unit").isNotIn(a.worker(), b.worker());
    }

    @Test
    void theFirstTransactionOfAUnitWaitsAtItsStartWithOneWorkerTakingUnits() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        s.activeWorkers(1);
        Decision a = s.schedule(Transactions.mariadb(1, 1), TransactionTraits.ordinary(new long[] {10}), null, 0, 0);
        Decision b = s.schedule(Transactions.mariadb(2, 2), TransactionTraits.ordinary(new long[] {10}), null, 0, 0);

        assertThat(b.deferred()).isFalse();
        assertThat(b.waitFor()).isEqualTo(1);
        assertThat(b.worker()).isEqualTo(a.worker());
    }

    @Test
    void anUnkeyedTransactionWaitsForEverythingBeforeItAndEverythingAfterWaitsForIt() {
        // Under workers: auto, transactions scheduled while one worker took new units have no write set.
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        TransactionTraits unkeyed = TransactionTraits.unkeyedOrdinary();
        Decision a = s.schedule(Transactions.mariadb(1, 1), TransactionTraits.ordinary(new long[] {10}), null, 0, 0);
        Decision b = s.schedule(Transactions.mariadb(2, 2), TransactionTraits.ordinary(new long[] {20}), null, 0, 0);
        Decision c = s.schedule(Transactions.mariadb(3, 3), unkeyed, null, 0, 0);
        Decision d = s.schedule(Transactions.mariadb(4, 4), TransactionTraits.ordinary(new long[] {99}), null, 0, 0);
        Decision e = s.schedule(Transactions.mariadb(5, 5), TransactionTraits.ordinary(new long[] {98}), null, 0, 0);

        assertThat(firstWait(b)).as("no shared key").isZero();
        assertThat(firstWait(c)).as("unkeyed: after the last unit before it").isEqualTo(2);
        assertThat(firstWait(d)).as("shares no key with anything, but unit 3's keys are unknown").isEqualTo(3);
        assertThat(firstWait(e)).as("the same, and unit 4 shares no key").isEqualTo(3);
        assertThat(firstWait(a)).isZero();
    }

    @Test
    void aKeyedTransactionJoiningAUnitWithAnUnkeyedOneWaitsForTheUnkeyedUnitBefore() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        TransactionTraits unkeyed = TransactionTraits.unkeyedOrdinary();
        s.schedule(Transactions.mariadb(1, 1), unkeyed, null, 0, 0);                                       // unit 1
        s.schedule(Transactions.mariadb(2, 2), TransactionTraits.ordinary(new long[] {20}), null, 0, 0);  // unit 2
        Transaction t3 = Transactions.mariadb(3, 3);
        Transaction t4 = Transactions.mariadb(4, 4);
        TransactionTraits keyed = TransactionTraits.ordinary(new long[] {40});
        Decision c = s.schedule(t3, unkeyed, new UnitScheduler.Lookahead.Next(t4, keyed), 0, 0);         // unit 3
        Decision d = s.schedule(t4, keyed, null, 0, 0);

        assertThat(firstWait(c)).isEqualTo(2);
        assertThat(d.unitId()).as("joins unit 3's tail, which already waits for everything before it").isEqualTo(3);
        assertThat(d.deferred()).as("after t3, which has no keys").isTrue();
        assertThat(d.joinWait()).as("no wait beyond the tail's").isLessThanOrEqualTo(c.joinWait());
        Decision e = s.schedule(Transactions.mariadb(5, 5), TransactionTraits.ordinary(new long[] {50}), null, 0, 0);
        assertThat(firstWait(e)).as("after unit 3, the latest with an unkeyed transaction").isEqualTo(3);
    }

    @Test
    void optimisticJoinsAConflictInsideTheOpenUnitWithoutWaiting() {
        List<Transaction> txs = List.of(Transactions.mariadb(1, 1), Transactions.mariadb(2, 2));
        List<TransactionTraits> traits = List.of(TransactionTraits.ordinary(new long[] {5}),
            TransactionTraits.ordinary(new long[] {5}));
        List<Decision> d = run(scheduler(ApplyMode.OPTIMISTIC, 4, BIG), txs, traits, 0);

        assertThat(d).extracting(Decision::unitId).containsExactly(1L, 1L);
        assertThat(d.get(1).unitEnd()).isTrue();
    }

    @Test
    void optimisticPutsATransactionThatSharesAKeyWithAnEarlierUnitInTheTailOfTheOpenUnit() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        s.schedule(Transactions.mariadb(1, 1), TransactionTraits.ordinary(new long[] {7}), null, 0, 0);
        Transaction t2 = Transactions.mariadb(2, 2);
        Transaction t3 = Transactions.mariadb(3, 3);
        Transaction t4 = Transactions.mariadb(4, 4);
        Transaction t5 = Transactions.mariadb(5, 5);
        Decision d2 = s.schedule(t2, TransactionTraits.ordinary(new long[] {8}),
            new UnitScheduler.Lookahead.Next(t3, TransactionTraits.ordinary(new long[] {7})), 0, 0);
        Decision d3 = s.schedule(t3, TransactionTraits.ordinary(new long[] {7}),
            new UnitScheduler.Lookahead.Next(t4, TransactionTraits.ordinary(new long[] {9, 7})), 0, 0);
        Decision d4 = s.schedule(t4, TransactionTraits.ordinary(new long[] {9, 7}),
            new UnitScheduler.Lookahead.Next(t5, TransactionTraits.ordinary(new long[] {11})), 0, 0);
        Decision d5 = s.schedule(t5, TransactionTraits.ordinary(new long[] {11}), null, 0, 0);

        assertThat(d2.unitId()).isEqualTo(2);
        assertThat(d2.waitFor()).as("unit 2 starts at once").isZero();
        assertThat(d2.deferred()).isFalse();
        assertThat(d2.unitEnd()).as("t3 joins unit 2 although unit 1, sharing key 7, is in flight").isFalse();
        assertThat(d3.unitId()).isEqualTo(2);
        assertThat(d3.deferred()).as("t3 goes to unit 2's tail").isTrue();
        assertThat(d3.joinWait()).as("the tail waits for unit 1").isEqualTo(1);
        assertThat(d4.deferred()).as("t4 shares key 7 with t3, in the tail: after it").isTrue();
        assertThat(d4.joinWait()).as("no unit in flight has key 9").isZero();
        assertThat(d5.deferred()).as("t5 shares no key with the tail nor with a unit in flight").isFalse();
        assertThat(d5.joinWait()).isZero();
        assertThat(d5.unitEnd()).isTrue();
        assertThat(d5.transactions()).isEqualTo(4);
    }

    @Test
    void afterATransactionWithoutKeysInTheTailEveryLaterTransactionJoinsTheTail() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        s.schedule(Transactions.mariadb(1, 1), TransactionTraits.ordinary(new long[] {7}), null, 0, 0);
        Transaction t2 = Transactions.mariadb(2, 2);
        Transaction t3 = Transactions.mariadb(3, 3);
        Transaction t4 = Transactions.mariadb(4, 4);
        TransactionTraits unkeyed = TransactionTraits.unkeyedOrdinary();
        Decision d2 = s.schedule(t2, TransactionTraits.ordinary(new long[] {8}),
            new UnitScheduler.Lookahead.Next(t3, unkeyed), 0, 0);
        Decision d3 = s.schedule(t3, unkeyed,
            new UnitScheduler.Lookahead.Next(t4, TransactionTraits.ordinary(new long[] {12})), 0, 0);
        Decision d4 = s.schedule(t4, TransactionTraits.ordinary(new long[] {12}), null, 0, 0);

        assertThat(d2.deferred()).isFalse();
        assertThat(d3.deferred()).as("without keys, t3 follows everything before it, unit 1 included").isTrue();
        assertThat(d3.joinWait()).isEqualTo(1);
        assertThat(d4.deferred()).as("t4 follows t3, which has no keys").isTrue();
        assertThat(d4.unitId()).isEqualTo(2);
    }

    @Test
    void onceTheUnitHasATailWhatFollowsJoinsItAlsoWhenOneWorkerIsLeft() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        Decision d1 = s.schedule(Transactions.mariadb(1, 1), TransactionTraits.ordinary(new long[] {7}), null, 0, 0);
        Transaction t2 = Transactions.mariadb(2, 2);
        Transaction t3 = Transactions.mariadb(3, 3);
        Transaction t4 = Transactions.mariadb(4, 4);
        Decision d2 = s.schedule(t2, TransactionTraits.ordinary(new long[] {8}),
            new UnitScheduler.Lookahead.Next(t3, TransactionTraits.ordinary(new long[] {7})), 0, 0);
        assertThat(d2.worker()).isNotEqualTo(d1.worker());
        s.committed(1);
        s.activeWorkers(1);
        Decision d3 = s.schedule(t3, TransactionTraits.ordinary(new long[] {7}),
            new UnitScheduler.Lookahead.Next(t4, TransactionTraits.ordinary(new long[] {7, 9})), 0, 1);
        Decision d4 = s.schedule(t4, TransactionTraits.ordinary(new long[] {7, 9}), null, 0, 1);

        assertThat(d3.deferred()).isTrue();
        assertThat(d4.unitId()).isEqualTo(2);
        assertThat(d4.deferred()).as("t4 shares key 7 with t3, in the tail: applied after it").isTrue();
    }

    @Test
    void aTransactionBehindNothingInFlightStaysOutOfTheTail() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        s.schedule(Transactions.mariadb(1, 1), TransactionTraits.ordinary(new long[] {7}), null, 0, 0);
        Transaction t2 = Transactions.mariadb(2, 2);
        Transaction t3 = Transactions.mariadb(3, 3);
        s.schedule(t2, TransactionTraits.ordinary(new long[] {8}),
            new UnitScheduler.Lookahead.Next(t3, TransactionTraits.ordinary(new long[] {8, 9})), 0, 0);
        Decision d3 = s.schedule(t3, TransactionTraits.ordinary(new long[] {8, 9}), null, 0, 0);

        assertThat(d3.deferred()).as("key 8 is the open unit's own: t3 follows t2 in source order").isFalse();
        assertThat(d3.joinWait()).isZero();
    }

    @Test
    void conservativeNeverWaitsInsideAUnit() {
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 4, BIG);
        s.schedule(Transactions.mariadb(1, 7), PLAIN, null, 0, 0);
        Transaction t2 = Transactions.mariadb(2, 7);
        Transaction t3 = Transactions.mariadb(3, 8);
        Decision d2 = s.schedule(t2, PLAIN, new UnitScheduler.Lookahead.Next(t3, PLAIN), 0, 0);
        Decision d3 = s.schedule(t3, PLAIN, null, 0, 0);

        assertThat(d2.unitEnd()).isTrue();
        assertThat(d3.unitId()).isEqualTo(3);
        assertThat(d3.joinWait()).isZero();
        assertThat(d3.waitFor()).isEqualTo(2);
    }

    @Test
    void optimisticJoinsATransactionWhoseConflictingUnitHasAlreadyCommitted() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, BIG);
        s.schedule(Transactions.mariadb(1, 1), TransactionTraits.ordinary(new long[] {7}), null, 0, 0);
        Transaction t2 = Transactions.mariadb(2, 2);
        Transaction t3 = Transactions.mariadb(3, 3);
        Decision d2 = s.schedule(t2, TransactionTraits.ordinary(new long[] {8}),
            new UnitScheduler.Lookahead.Next(t3, TransactionTraits.ordinary(new long[] {7})), 0, 1);
        Decision d3 = s.schedule(t3, TransactionTraits.ordinary(new long[] {7}), null, 0, 1);

        assertThat(d2.unitEnd()).as("unit 1, which t3 follows, is committed: nothing to wait for").isFalse();
        assertThat(d3.unitId()).isEqualTo(2);
        assertThat(d3.deferred()).isFalse();
        assertThat(d3.unitEnd()).isTrue();
        assertThat(d3.transactions()).isEqualTo(2);
    }

    @Test
    void conservativeJoinsTheNextGroupOnceTheEarlierUnitsHaveCommitted() {
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 4, BIG);
        s.schedule(Transactions.mariadb(1, 7), PLAIN, null, 0, 0);
        Transaction t2 = Transactions.mariadb(2, 7);
        Transaction t3 = Transactions.mariadb(3, 8);
        Decision d2 = s.schedule(t2, PLAIN, new UnitScheduler.Lookahead.Next(t3, PLAIN), 0, 1);
        Decision d3 = s.schedule(t3, PLAIN, null, 0, 1);

        assertThat(d2.unitId()).isEqualTo(2);
        assertThat(d2.unitEnd()).as("group 8 needs group 7 committed, and unit 1 holding it is").isFalse();
        assertThat(d3.unitId()).isEqualTo(2);
    }

    @Test
    void aLargeTransactionStaysInOneUnitAcrossItsParts() {
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 2, BIG);
        TransactionTraits large = TransactionTraits.barrier("large transaction", true);
        Decision p0 = s.schedule(Transactions.part(1, 0, false, 10), large, null, 0, 0);
        Decision p1 = s.schedule(Transactions.part(1, 1, false, 10), large, null, 0, 0);
        Decision p2 = s.schedule(Transactions.part(1, 2, true, 10), large, null, 0, 0);

        assertThat(List.of(p0, p1, p2)).extracting(Decision::unitId).containsOnly(1L);
        assertThat(p0.unitStart()).isTrue();
        assertThat(p1.unitStart()).isFalse();
        assertThat(p0.unitEnd()).isFalse();
        assertThat(p2.unitEnd()).isTrue();
        assertThat(p2.transactions()).isEqualTo(1);
    }

    @Test
    void committedUnitsFreeTheirWorkerForNewUnits() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 2, BIG);
        Decision a = s.schedule(Transactions.mariadb(1, 1), PLAIN, null, 0, 0);
        Decision b = s.schedule(Transactions.mariadb(2, 2), PLAIN, null, 0, 0);
        s.committed(1);
        Decision c = s.schedule(Transactions.mariadb(3, 3), PLAIN, null, 0, 1);

        assertThat(a.worker()).isNotEqualTo(b.worker());
        assertThat(c.worker()).as("worker of committed unit 1 is the idle one").isEqualTo(a.worker());
    }

    @Test
    void withOneActiveWorkerOfManyEveryNewUnitGoesToTheSameWorker() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 8, BIG);
        s.activeWorkers(1);
        Decision a = s.schedule(Transactions.mariadb(1, 1), PLAIN, null, 0, 0);
        Decision b = s.schedule(Transactions.mariadb(2, 2), PLAIN, null, 0, 0);
        Decision c = s.schedule(Transactions.mariadb(3, 3), PLAIN, null, 0, 0);

        assertThat(List.of(a.worker(), b.worker(), c.worker())).containsOnly(0);
        s.activeWorkers(3);
        Decision d = s.schedule(Transactions.mariadb(4, 4), PLAIN, null, 0, 0);
        Decision e = s.schedule(Transactions.mariadb(5, 5), PLAIN, null, 0, 0);
        assertThat(List.of(d.worker(), e.worker())).as("the idle workers of the three active").containsExactly(1, 2);
        s.activeWorkers(99);
        assertThat(s.schedule(Transactions.mariadb(6, 6), PLAIN, null, 0, 0).worker())
            .as("more than configured means all of them").isBetween(3, 7);
    }

    @Test
    void conservativeWithOneActiveWorkerOfManyCutsUnitsOnlyByTheirBoundsAsOneWorkerDoes() {
        // Three commit groups; with 4 workers active, joining group 8 to a unit of half of group 7 adds a
        // wait, so the unit is cut there (see conservativeCutsAUnitAtAGroupBoundaryWhenJoiningWouldAddAWait).
        List<Transaction> txs = List.of(Transactions.mariadb(1, 7), Transactions.mariadb(2, 7),
            Transactions.mariadb(3, 8), Transactions.mariadb(4, 9));
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 4, BIG);
        s.activeWorkers(1);
        List<Decision> d = run(s, txs, plain(4), 0);

        assertThat(d).extracting(Decision::unitId).containsOnly(1L);
        assertThat(d.get(3).transactions()).isEqualTo(4);
    }

    @Test
    void oneActiveWorkerStillWaitsForAUnitAnotherWorkerHasInFlight() {
        // Units 1 and 2 (group 7) are in flight on two workers when the governor leaves one active. t3, also
        // of group 7, starts unit 3 on worker 0 with no wait; t4 (group 8) needs unit 2, which runs on
        // worker 1: joining unit 3 would skip that wait, so the unit is cut and the next one waits.
        UnitScheduler s = scheduler(ApplyMode.CONSERVATIVE, 4, BIG);
        Decision a = s.schedule(Transactions.mariadb(1, 7), PLAIN, null, 0, 0);
        Decision b = s.schedule(Transactions.mariadb(2, 7), PLAIN, null, 0, 0);
        assertThat(a.worker()).isNotEqualTo(b.worker());
        s.activeWorkers(1);
        Transaction t3 = Transactions.mariadb(3, 7);
        Transaction t4 = Transactions.mariadb(4, 8);
        Decision c = s.schedule(t3, PLAIN, new UnitScheduler.Lookahead.Next(t4, PLAIN), 0, 0);
        Decision d = s.schedule(t4, PLAIN, null, 0, 0);

        assertThat(c.worker()).isZero();
        assertThat(c.waitFor()).isZero();
        assertThat(c.unitEnd()).isTrue();
        assertThat(d.unitId()).isEqualTo(4);
        assertThat(d.waitFor()).isEqualTo(3);

        // Once units 1 and 2 have committed, everything in flight is on worker 0: t6 joins t5's unit.
        UnitScheduler s2 = scheduler(ApplyMode.CONSERVATIVE, 4, BIG);
        s2.schedule(Transactions.mariadb(1, 7), PLAIN, null, 0, 0);
        s2.schedule(Transactions.mariadb(2, 7), PLAIN, null, 0, 0);
        s2.activeWorkers(1);
        s2.committed(1);
        s2.committed(2);
        Transaction t5 = Transactions.mariadb(3, 7);
        Transaction t6 = Transactions.mariadb(4, 8);
        Decision e = s2.schedule(t5, PLAIN, new UnitScheduler.Lookahead.Next(t6, PLAIN), 0, 2);
        assertThat(e.unitEnd()).isFalse();
        assertThat(s2.schedule(t6, PLAIN, null, 0, 2).unitId()).isEqualTo(e.unitId());
    }

    @Test
    void forgettingCommittedKeysStaysCheapWhenTheSchedulerRunsFarAheadOfTheCommits() {
        UnitScheduler s = scheduler(ApplyMode.OPTIMISTIC, 4, new UnitBounds(10, 1L << 30, Long.MAX_VALUE));
        long seq = 0;
        // nothing commits: every key belongs to a unit in flight, so no sweep can shrink the map
        for (int i = 0; i < 150_000; i++, seq++) {
            s.schedule(Transactions.mariadb(seq + 1, seq + 1), TransactionTraits.ordinary(new long[] {seq}), null, 0, 0);
        }
        assertThat(s.keysRemembered()).isEqualTo(150_000);
        // one unit per transaction here: the unit map (10,000) is swept at 10k, 20k, 40k, 80k units, the key
        // map (100,000) once; before, each was swept again at every transaction past its threshold
        assertThat(s.sweeps()).as("sweeps of maps that cannot shrink").isEqualTo(5);
        long sweeps = s.sweeps();
        // everything so far commits: the next sweep forgets it
        long committed = s.lastUnit();
        for (int i = 0; i < 60_000; i++, seq++) {
            s.schedule(Transactions.mariadb(seq + 1, seq + 1), TransactionTraits.ordinary(new long[] {seq}), null, 0,
                committed);
        }
        assertThat(s.sweeps()).isGreaterThan(sweeps);
        assertThat(s.keysRemembered()).as("only the keys of units in flight remain").isEqualTo(60_000);
    }

    /** MariaDB transactions {@code from}..{@code to}, each its own commit group. */
    private static List<Transaction> numbered(int from, int to) {
        List<Transaction> txs = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            txs.add(Transactions.mariadb(i, i));
        }
        return txs;
    }
}
