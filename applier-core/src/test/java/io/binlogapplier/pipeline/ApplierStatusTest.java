package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.errors.Side;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.transaction.CommitGroup;
import io.binlogapplier.transaction.Transaction;
import io.binlogapplier.transaction.TransactionEnd;
import io.binlogapplier.transaction.TransactionHead;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ApplierStatusTest {
    private static final long T0 = 1_700_000_000L; // seconds since the epoch

    private final MutableClock clock = new MutableClock(T0);
    private final ApplierStatus status = new ApplierStatus(clock);
    private final FakeProbe probe = new FakeProbe(at("mysql-bin.000001", 100), (T0 - 3600) * 1_000_000L);

    @Test
    void lagIsUnknownUntilThePositionAndTheSourceEndAreKnown() {
        assertThat(status.lagSeconds()).isNaN();
        status.positionLoaded(probe.position, probe.commitMicros);
        assertThat(status.lagSeconds()).as("the source's end is not known yet").isNaN();
        assertThat(status.state()).isEqualTo(ApplierStatus.State.STARTING);
    }

    @Test
    void lagIsZeroWhenEverythingReceivedIsAppliedAndTheReaderIsAtTheSourceEnd() {
        start();
        status.sourceEnd(at("mysql-bin.000001", 100));

        assertThat(status.lagSeconds()).isZero();
        assertThat(status.state()).isEqualTo(ApplierStatus.State.CAUGHT_UP);
    }

    @Test
    void heartbeatsOfAnIdleSourceKeepTheLagAtZeroHowEverOldTheLastTransaction() {
        start();
        for (int i = 0; i < 60; i++) {
            clock.advanceMillis(1000);
            status.readerAt(at("mysql-bin.000001", 100));
            status.sourceEnd(at("mysql-bin.000001", 100));
            assertThat(status.lagSeconds()).isZero();
        }
    }

    @Test
    void lagIsNowMinusTheSourceCommitTimeOfTheOldestTransactionReceivedButNotApplied() {
        start();
        status.received(transaction(T0 - 30, 200));
        status.received(transaction(T0 - 20, 300));
        status.received(transaction(T0 - 10, 400));
        status.sourceEnd(at("mysql-bin.000001", 400));

        assertThat(status.lagSeconds()).isEqualTo(30.0);
        assertThat(status.state()).isEqualTo(ApplierStatus.State.APPLYING);

        probe.applied(1, at("mysql-bin.000001", 200), (T0 - 30) * 1_000_000L);
        clock.advanceMillis(2000);
        assertThat(status.lagSeconds()).as("the second transaction is the oldest now").isEqualTo(22.0);

        probe.applied(3, at("mysql-bin.000001", 400), (T0 - 10) * 1_000_000L);
        status.readerAt(at("mysql-bin.000001", 400));
        assertThat(status.lagSeconds()).as("all applied and at the source's end").isZero();
    }

    @Test
    void aLargePartlyReceivedTransactionIsNotPendingButTheLagStillGrows() {
        start();
        status.sourceEnd(at("mysql-bin.000001", 100));
        assertThat(status.lagSeconds()).isZero();
        clock.advanceMillis(5000);
        status.received(part(T0)); // first part of a transaction: its commit time is not known yet
        status.sourceEnd(at("mysql-bin.000001", 90_000_000));

        assertThat(status.lagSeconds()).as("counted from the last moment the applier was known to be caught up")
            .isEqualTo(5.0, within(0.001));
        clock.advanceMillis(3000);
        assertThat(status.lagSeconds()).isEqualTo(8.0, within(0.001));
    }

    @Test
    void afterARestartWithABacklogTheFirstLagComesFromTheSavedCommitTime() {
        status.positionLoaded(probe.position, (T0 - 42) * 1_000_000L);
        status.sourceEnd(at("mysql-bin.000003", 4000));

        assertThat(status.lagSeconds()).isEqualTo(42.0);
        assertThat(status.state()).isEqualTo(ApplierStatus.State.STARTING);
    }

    @Test
    void withoutAnyKnownCommitTimeABacklogHasAnUnknownLagNotFiftyYears() {
        status.positionLoaded(probe.position, 0);
        status.sourceEnd(at("mysql-bin.000003", 4000));

        assertThat(status.lagSeconds()).isNaN();
    }

    @Test
    void aSourceEndSeenAheadOfTheReaderRightAfterBeingCaughtUpIsNotAnHourOfLag() {
        start(); // the last applied transaction committed an hour ago
        status.sourceEnd(at("mysql-bin.000001", 100));
        assertThat(status.lagSeconds()).isZero();
        clock.advanceMillis(500);
        // the poll sees a new transaction before the reader does
        status.sourceEnd(at("mysql-bin.000001", 300));

        assertThat(status.lagSeconds()).isEqualTo(0.5, within(0.001));
    }

    @Test
    void lagIsNeverNegativeWhenTheSourceClockRunsAhead() {
        start();
        status.received(transaction(T0 + 5, 200));

        assertThat(status.lagSeconds()).isZero();
        assertThat(status.state()).as("not caught up: a transaction is still pending")
            .isEqualTo(ApplierStatus.State.APPLYING);
    }

    @Test
    void rotationsCountByFileNumberAndTheirEventTimestampsPlayNoPart() {
        start();
        status.sourceEnd(at("mysql-bin.000002", 256));
        assertThat(status.lagSeconds()).as("behind: the source moved to the next file").isEqualTo(3600.0);

        status.readerAt(at("mysql-bin.000002", 256));
        assertThat(status.lagSeconds()).as("the reader followed the rotation").isZero();
    }

    @Test
    void aNewStreamAfterAReconnectStartsCountingAfresh() {
        start();
        status.received(transaction(T0 - 30, 200));
        status.sourceEnd(at("mysql-bin.000001", 200));
        assertThat(status.lagSeconds()).isEqualTo(30.0);

        status.reconnecting(Side.SOURCE, 1, "lost the source");
        assertThat(status.state()).isEqualTo(ApplierStatus.State.RECONNECTING);
        FakeProbe next = new FakeProbe(at("mysql-bin.000001", 100), (T0 - 3600) * 1_000_000L);
        status.streamStarted(next);
        status.received(transaction(T0 - 30, 200));
        next.applied(1, at("mysql-bin.000001", 200), (T0 - 30) * 1_000_000L);
        status.readerAt(at("mysql-bin.000001", 200));

        assertThat(status.lagSeconds()).isZero();
        assertThat(status.state()).isEqualTo(ApplierStatus.State.CAUGHT_UP);
        assertThat(status.lastError()).isEqualTo("lost the source");
    }

    @Test
    void aSilentSourceIsNoLongerCaughtUpAndTheLagGrowsFromTheLastHeartbeat() {
        status.sourceSilentAfter(java.time.Duration.ofSeconds(3));
        start();
        status.readerAt(at("mysql-bin.000001", 100));
        status.sourceEnd(at("mysql-bin.000001", 100));
        clock.advanceMillis(2_000);
        assertThat(status.lagSeconds()).as("a heartbeat may be a moment late").isZero();
        assertThat(status.state()).isEqualTo(ApplierStatus.State.CAUGHT_UP);

        clock.advanceMillis(8_000);
        assertThat(status.lagSeconds()).as("10 s without a word from the source").isEqualTo(10.0);
        assertThat(status.state()).isEqualTo(ApplierStatus.State.APPLYING);

        status.sourceEnd(at("mysql-bin.000001", 100));
        assertThat(status.lagSeconds()).as("heard again").isZero();
    }

    @Test
    void whileTheSourceIsLostTheLagGrowsEvenWhenItsEndCanStillBeRead() {
        start();
        status.readerAt(at("mysql-bin.000001", 100));
        status.sourceEnd(at("mysql-bin.000001", 100));
        assertThat(status.lagSeconds()).isZero();

        status.reconnecting(Side.SOURCE, 1, "source sent nothing for 5000 ms");
        for (int i = 0; i < 5; i++) {
            clock.advanceMillis(1_000);
            status.sourceEnd(at("mysql-bin.000001", 100)); // SHOW MASTER STATUS on another connection
        }
        assertThat(status.lagSeconds()).isEqualTo(5.0);
        assertThat(status.state()).isEqualTo(ApplierStatus.State.RECONNECTING);
        assertThat(status.reconnect()).isEqualTo(new ApplierStatus.Reconnect(Side.SOURCE, 1));

        status.reconnecting(Side.SOURCE, 2, "connection refused");
        FakeProbe next = new FakeProbe(at("mysql-bin.000001", 100), (T0 - 3600) * 1_000_000L);
        status.streamStarted(next);
        assertThat(status.state()).as("a new stream is not yet a source that answers")
            .isEqualTo(ApplierStatus.State.RECONNECTING);
        status.readerAt(at("mysql-bin.000001", 100)); // its first heartbeat
        status.sourceEnd(at("mysql-bin.000001", 100));
        assertThat(status.state()).isEqualTo(ApplierStatus.State.CAUGHT_UP);
        assertThat(status.reconnect()).isNull();
        assertThat(status.lagSeconds()).isZero();
    }

    /** Under steady load the reader passes the source's end read a second ago: what it read is still behind. */
    @Test
    void bytesBehindCountToTheReaderWhenItIsPastTheLastSourceEndRead() {
        start();
        status.sourceEnd(at("mysql-bin.000001", 100));
        status.received(transaction(T0, 600));
        status.readerAt(at("mysql-bin.000001", 600));

        assertThat(status.state()).isEqualTo(ApplierStatus.State.APPLYING);
        assertThat(status.bytesBehind()).isEqualTo(500);
    }

    /**
     * A transaction stamped an hour ahead (SET timestamp, or a source clock ahead), applied, then the
     * source lost: the lag grows from when it was applied. It read 0 for the whole outage.
     */
    @Test
    void aFutureStampedTransactionDoesNotHideAnOutage() {
        start();
        status.readerAt(at("mysql-bin.000001", 100));
        status.sourceEnd(at("mysql-bin.000001", 100));
        status.received(transaction(T0 + 3600, 200));
        probe.applied(1, at("mysql-bin.000001", 200), (T0 + 3600) * 1_000_000L);
        status.unitCommitted(1, 1, 100);
        status.readerAt(at("mysql-bin.000001", 200));
        status.sourceEnd(at("mysql-bin.000001", 200));
        assertThat(status.lagSeconds()).isZero();

        clock.advanceMillis(3_000);
        status.reconnecting(Side.SOURCE, 1, "source sent nothing for 5000 ms");
        clock.advanceMillis(25_000);
        assertThat(status.lagSeconds()).isEqualTo(28.0);
    }

    /** With the target lost, an idle source's end says nothing of what the target holds: the lag grows. */
    @Test
    void whileTheTargetIsLostTheLagGrowsThoughTheSourceIsIdle() {
        start();
        status.readerAt(at("mysql-bin.000001", 100));
        status.sourceEnd(at("mysql-bin.000001", 100));
        assertThat(status.lagSeconds()).isZero();

        status.reconnecting(Side.TARGET, 1, "lost the target");
        for (int i = 0; i < 4; i++) {
            clock.advanceMillis(1_000);
            status.sourceEnd(at("mysql-bin.000001", 100)); // SHOW MASTER STATUS still answers
        }
        assertThat(status.lagSeconds()).isEqualTo(4.0);
        assertThat(status.state()).isEqualTo(ApplierStatus.State.RECONNECTING);

        FakeProbe next = new FakeProbe(at("mysql-bin.000001", 100), (T0 - 3600) * 1_000_000L);
        status.streamStarted(next);
        status.readerAt(at("mysql-bin.000001", 100));
        status.sourceEnd(at("mysql-bin.000001", 100));
        assertThat(status.lagSeconds()).as("back, and at the source's end").isZero();
    }

    @Test
    void aTargetReconnectShowsSideAndAttemptUntilTheNextStreamStarts() {
        start();
        status.reconnecting(Side.TARGET, 3, "cannot reach the target");
        assertThat(status.state()).isEqualTo(ApplierStatus.State.RECONNECTING);
        assertThat(status.reconnect()).isEqualTo(new ApplierStatus.Reconnect(Side.TARGET, 3));
        assertThat(status.lastError()).isEqualTo("cannot reach the target");

        status.streamStarted(new FakeProbe(at("mysql-bin.000001", 100), (T0 - 3600) * 1_000_000L));
        assertThat(status.state()).isEqualTo(ApplierStatus.State.APPLYING);
        assertThat(status.reconnect()).isNull();
    }

    @Test
    void aFailureIsTheStateAndTheLastError() {
        start();
        status.stopping();
        assertThat(status.state()).isEqualTo(ApplierStatus.State.STOPPING);
        status.failed(new ApplierException(ExitCode.TARGET_DATA_CONFLICT, "row missing"));
        status.stopped();

        assertThat(status.state()).isEqualTo(ApplierStatus.State.FAILED);
        assertThat(status.lastError()).isEqualTo("row missing");
        assertThat(status.lastErrorAt()).isEqualTo(clock.instant());
    }

    private void start() {
        status.positionLoaded(probe.position, probe.commitMicros);
        status.streamStarted(probe);
    }

    private static BinlogCoordinates at(String file, long offset) {
        return new BinlogCoordinates(file, offset);
    }

    private static Transaction transaction(long commitSeconds, long end) {
        TransactionHead head = new TransactionHead(1, null, CommitGroup.NONE, at("mysql-bin.000001", end - 50),
            commitSeconds, null);
        return new Transaction(head, 0, List.of(), 100,
            new TransactionEnd(at("mysql-bin.000001", end), commitSeconds * 1_000_000L, false), false, false);
    }

    private static Transaction part(long startSeconds) {
        TransactionHead head = new TransactionHead(1, null, CommitGroup.NONE, at("mysql-bin.000001", 100),
            startSeconds, null);
        return new Transaction(head, 0, List.of(), 8 << 20, null, false, false);
    }

    private static final class FakeProbe implements PipelineProbe {
        volatile SourcePosition position;
        volatile long commitMicros;
        volatile long applied;

        FakeProbe(BinlogCoordinates at, long commitMicros) {
            this.position = new SourcePosition(at, "", SourcePosition.ResumeBy.FILE);
            this.commitMicros = commitMicros;
        }

        void applied(long transactions, BinlogCoordinates at, long micros) {
            position = new SourcePosition(at, "", SourcePosition.ResumeBy.FILE);
            commitMicros = micros;
            applied = transactions;
        }

        @Override
        public long ringEntries() {
            return 0;
        }

        @Override
        public long ringBytes() {
            return 0;
        }

        @Override
        public int busyWorkers() {
            return 0;
        }

        @Override
        public int workers() {
            return 1;
        }

        @Override
        public long appliedTransactions() {
            return applied;
        }

        @Override
        public SourcePosition appliedPosition() {
            return position;
        }

        @Override
        public long appliedCommitMicros() {
            return commitMicros;
        }

        @Override
        public int inFlightBound() {
            return 64;
        }
    }

    private static final class MutableClock extends Clock {
        private volatile Instant now;

        MutableClock(long epochSeconds) {
            this.now = Instant.ofEpochSecond(epochSeconds);
        }

        void advanceMillis(long millis) {
            now = now.plusMillis(millis);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
