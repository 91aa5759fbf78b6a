package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class ReconnectBackoffTest {
    @Test
    void reconnectsWaitHalfASecondThenDoubleUpToTwoSecondsForever() {
        assertThat(Applier.backoffMillis(1)).isEqualTo(500);
        assertThat(Applier.backoffMillis(2)).isEqualTo(1_000);
        assertThat(Applier.backoffMillis(3)).isEqualTo(2_000);
        assertThat(Applier.backoffMillis(4)).isEqualTo(2_000);
        assertThat(Applier.backoffMillis(Integer.MAX_VALUE)).isEqualTo(2_000);
    }

    @Test
    void onlyAnUnreachableTargetIsReconnectedNotARefusedLoginOrADataConflict() {
        assertThat(Applier.targetLost(TargetErrors.connect(new SQLException("Communications link failure", "08S01"))))
            .isTrue();
        assertThat(Applier.targetLost(new ApplierException(ExitCode.TARGET_UNREACHABLE, "ping unanswered"))).isTrue();
        assertThat(Applier.targetLost(TargetErrors.connect(new SQLException("Access denied", "28000", 1045))))
            .isFalse();
        assertThat(Applier.targetLost(new ApplierException(ExitCode.TARGET_DATA_CONFLICT, "duplicate key")))
            .isFalse();
        assertThat(Applier.targetLost(new ApplierException(ExitCode.SOURCE_UNREACHABLE, "source gone"))).isFalse();
    }
}
