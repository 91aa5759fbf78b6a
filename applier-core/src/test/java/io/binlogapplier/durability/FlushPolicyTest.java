package io.binlogapplier.durability;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.binlogapplier.durability.FlushPolicy.Action.NONE;
import static io.binlogapplier.durability.FlushPolicy.Action.RELAX;
import static io.binlogapplier.durability.FlushPolicy.Action.STRICT;
import static org.assertj.core.api.Assertions.assertThat;

class FlushPolicyTest {
    private static final long S = 1_000_000_000L;
    private final FlushPolicy policy = new FlushPolicy(Duration.ofSeconds(10), Duration.ofSeconds(60));

    @Test
    void staysStrictWhileTheLagIsUnderTheThreshold() {
        assertThat(policy.next(0, 0)).isEqualTo(NONE);
        assertThat(policy.next(9.9, S)).isEqualTo(NONE);
    }

    /** A RELAX the target could not carry out (it was lost) is given again at the next lagging check. */
    @Test
    void aRelaxThatFailedIsGivenAgain() {
        assertThat(policy.next(10, 0)).isEqualTo(RELAX);
        policy.relaxFailed();
        assertThat(policy.next(12, S)).isEqualTo(RELAX);
        assertThat(policy.next(12, 2 * S)).isEqualTo(NONE);
    }

    @Test
    void relaxesAsSoonAsTheLagReachesTheThreshold() {
        assertThat(policy.next(10, 0)).isEqualTo(RELAX);
        assertThat(policy.next(30, S)).as("already relaxed").isEqualTo(NONE);
    }

    @Test
    void goesBackToStrictOnlyOnceTheLagStayedUnderTheThresholdForStrictAfter() {
        policy.next(12, 0);
        assertThat(policy.next(2, 1 * S)).isEqualTo(NONE);
        assertThat(policy.next(11, 30 * S)).as("lagging again: the calm period starts over").isEqualTo(NONE);
        assertThat(policy.next(3, 31 * S)).isEqualTo(NONE);
        assertThat(policy.next(0, 90 * S)).as("59 s calm").isEqualTo(NONE);
        assertThat(policy.next(0, 91 * S)).isEqualTo(STRICT);
        assertThat(policy.next(0, 92 * S)).isEqualTo(NONE);
        assertThat(policy.next(15, 93 * S)).isEqualTo(RELAX);
    }

    @Test
    void anUnknownLagChangesNothing() {
        assertThat(policy.next(Double.NaN, 0)).isEqualTo(NONE);
        policy.next(20, S);
        assertThat(policy.next(Double.NaN, 100 * S)).isEqualTo(NONE);
        assertThat(policy.next(0, 101 * S)).as("NaN did not count as calm").isEqualTo(NONE);
    }
}
