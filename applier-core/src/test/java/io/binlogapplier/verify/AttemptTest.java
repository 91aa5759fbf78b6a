package io.binlogapplier.verify;

import io.binlogapplier.position.BinlogCoordinates;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AttemptTest {
    private static final BinlogCoordinates P1 = new BinlogCoordinates("mysql-bin.000007", 5000);
    private static final Checksum A = new Checksum(100, 0x1234L, 99);
    private static final Checksum B = new Checksum(100, 0x4321L, 98);
    private static final Checksum C = new Checksum(101, 0x1111L, 97);

    private static Attempt attempt(Checksum before, BinlogCoordinates applied, Checksum target, Checksum after) {
        return new Attempt(P1, before, applied, target, after);
    }

    @Test
    void aTargetHoldingWhatTheSourceHeldAtEitherSnapshotMatchesWhereverTheApplierIs() {
        assertThat(attempt(A, P1, A, A).verdict()).isEqualTo(Attempt.Verdict.MATCH);
        assertThat(attempt(A, new BinlogCoordinates("mysql-bin.000007", 4000), A, B).verdict())
            .as("a stopped applier whose rows were not changed since").isEqualTo(Attempt.Verdict.MATCH);
        assertThat(attempt(A, P1, B, B).verdict()).as("the chunk changed once, the target has it")
            .isEqualTo(Attempt.Verdict.MATCH);
        assertThat(attempt(A, null, A, A).verdict()).isEqualTo(Attempt.Verdict.MATCH);
    }

    @Test
    void aStableSourceChunkAndAnApplierPastTheFirstSnapshotMakeADifferenceReal() {
        assertThat(attempt(A, P1, C, A).verdict()).isEqualTo(Attempt.Verdict.DIFFERS);
        assertThat(attempt(A, new BinlogCoordinates("mysql-bin.000008", 4), C, A).verdict())
            .as("a later binlog file").isEqualTo(Attempt.Verdict.DIFFERS);
    }

    @Test
    void aChunkThatChangedBetweenTheSourceReadsProvesNothing() {
        assertThat(attempt(A, P1, C, B).verdict()).isEqualTo(Attempt.Verdict.CHANGING);
    }

    @Test
    void anApplierBehindTheSourcesSnapshotCannotShowADifference() {
        assertThat(attempt(A, new BinlogCoordinates("mysql-bin.000007", 4999), C, A).verdict())
            .isEqualTo(Attempt.Verdict.BEHIND);
        assertThat(attempt(A, new BinlogCoordinates("mysql-bin.000006", 9999), C, A).verdict())
            .isEqualTo(Attempt.Verdict.BEHIND);
        assertThat(attempt(A, null, C, A).verdict()).as("no state row").isEqualTo(Attempt.Verdict.BEHIND);
    }
}
