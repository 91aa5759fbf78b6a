package io.binlogapplier.status;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.TransactionRef;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** When a later applied position has passed the transaction of the last error (so the error is cleared). */
class LastErrorTest {
    private static final Instant AT = Instant.parse("2026-12-02T04:00:00Z");

    private static SourcePosition at(String file, long offset, String gtids) {
        return new SourcePosition(new BinlogCoordinates(file, offset), gtids, SourcePosition.ResumeBy.FILE);
    }

    @Test
    void aMariadbTransactionIsPassedOnceTheAppliedPositionHoldsItsGtid() {
        LastError e = new LastError(23, "TARGET_DATA_CONFLICT", "dup", new TransactionRef("0-1-57",
            new BinlogCoordinates("mysql-bin.000001", 12686)), true, AT);

        assertThat(e.passedBy(at("mysql-bin.000001", 12686, "0-1-56"))).as("stopped right before it").isFalse();
        assertThat(e.passedBy(at("mysql-bin.000001", 12900, "0-1-57"))).isTrue();
        assertThat(e.passedBy(at("mysql-bin.000002", 400, "0-1-90"))).isTrue();
        assertThat(e.passedBy(null)).isFalse();
    }

    @Test
    void withoutGtidsTheFilePositionDecides() {
        LastError e = new LastError(23, "TARGET_DATA_CONFLICT", "dup", new TransactionRef("",
            new BinlogCoordinates("mysql-bin.000009", 500)), true, AT);

        assertThat(e.passedBy(at("mysql-bin.000009", 500, ""))).isFalse();
        assertThat(e.passedBy(at("mysql-bin.000009", 501, ""))).isTrue();
        assertThat(e.passedBy(at("mysql-bin.000010", 4, ""))).isTrue();
        assertThat(e.passedBy(at("mysql-bin.000008", 900, ""))).isFalse();
    }

    @Test
    void anErrorOfNoTransactionIsPassedByAnyProgressFromWhereItStopped() {
        LastError e = new LastError(22, "TARGET_SCHEMA_MISMATCH", "no table", new TransactionRef("",
            new BinlogCoordinates("mysql-bin.000001", 900)), false, AT);

        assertThat(e.passedBy(at("mysql-bin.000001", 900, "0-1-5"))).isFalse();
        assertThat(e.passedBy(at("mysql-bin.000001", 1200, "0-1-6"))).isTrue();
        assertThat(e.describe()).startsWith("exit 22 (TARGET_SCHEMA_MISMATCH) at 2026-12-02T04:00:00Z at position"
            + " mysql-bin.000001:900: no table");
    }
}
