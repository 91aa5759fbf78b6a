package io.binlogapplier.pipeline;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which reconnects count as "in a row" for reconnect_attempts. */
class LossStreakTest {
    @Test
    void pipelinesThatLoseTheServerAtOnceWithoutCommittingContinueTheStreak() {
        LossStreak s = new LossStreak();
        s.pipelineEnded(false, 200);
        assertThat(s.nextAttempt()).isEqualTo(1);
        assertThat(s.nextAttempt()).as("a failed reconnect of the same outage").isEqualTo(2);
        s.pipelineEnded(false, 300);
        assertThat(s.nextAttempt()).as("back, then lost again before any commit").isEqualTo(3);
    }

    @Test
    void aCommitOrASettledPipelineStartsANewStreak() {
        LossStreak s = new LossStreak();
        s.pipelineEnded(false, 10);
        s.nextAttempt();
        s.nextAttempt();
        s.pipelineEnded(true, 10);
        assertThat(s.nextAttempt()).as("it committed").isEqualTo(1);
        s.pipelineEnded(false, LossStreak.SETTLED_MILLIS - 1);
        assertThat(s.nextAttempt()).isEqualTo(2);
        s.pipelineEnded(false, LossStreak.SETTLED_MILLIS);
        assertThat(s.nextAttempt()).as("an idle source kept for a minute: a new outage").isEqualTo(1);
    }
}
