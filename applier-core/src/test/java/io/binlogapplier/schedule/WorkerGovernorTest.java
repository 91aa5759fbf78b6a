package io.binlogapplier.schedule;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkerGovernorTest {
    private static final long SECOND = 1_000_000_000L;

    /** Feeds readings one second apart, each {@code perSecond} pages after the one before. */
    private static int run(WorkerGovernor g, long[] clock, long[] reads, long perSecond, int seconds) {
        int active = g.active();
        for (int i = 0; i < seconds; i++) {
            clock[0] += SECOND;
            reads[0] += perSecond;
            active = g.sample(clock[0], reads[0]);
        }
        return active;
    }

    @Test
    void startsWithOneWorker() {
        WorkerGovernor g = new WorkerGovernor(16);
        assertThat(g.active()).isEqualTo(1);
        assertThat(g.sample(5 * SECOND, 1_000_000)).as("the first reading is only a baseline").isEqualTo(1);
    }

    @Test
    void aTargetReadingFromDiskQuadruplesTheWorkersAtEachReadingUpToTheMaximum() {
        WorkerGovernor g = new WorkerGovernor(16);
        long[] clock = {0};
        long[] reads = {0};
        g.sample(clock[0], reads[0]);
        assertThat(run(g, clock, reads, 5_000, 1)).isEqualTo(4);
        assertThat(run(g, clock, reads, 5_000, 1)).isEqualTo(16);
        assertThat(run(g, clock, reads, 5_000, 10)).isEqualTo(16);
        assertThat(g.lastRate()).isEqualTo(5_000);
    }

    @Test
    void theMaximumIsNotAPowerOfTheGrowth() {
        WorkerGovernor g = new WorkerGovernor(6);
        long[] clock = {0};
        long[] reads = {0};
        g.sample(0, 0);
        assertThat(run(g, clock, reads, 2_000, 1)).isEqualTo(4);
        assertThat(run(g, clock, reads, 2_000, 1)).isEqualTo(6);
        assertThat(run(g, clock, reads, 2_000, 3)).isEqualTo(6);
    }

    @Test
    void aTargetWorkingFromMemoryKeepsOneWorker() {
        WorkerGovernor g = new WorkerGovernor(16);
        long[] clock = {0};
        long[] reads = {0};
        g.sample(0, 0);
        assertThat(run(g, clock, reads, 0, 60)).isEqualTo(1);
        assertThat(run(g, clock, reads, 999, 60)).as("just under the rate that adds workers").isEqualTo(1);
    }

    @Test
    void theRateIsPerSecondWhateverTheSpacingOfReadings() {
        WorkerGovernor g = new WorkerGovernor(16);
        g.sample(0, 0);
        assertThat(g.sample(SECOND / 2, 600)).as("600 pages in half a second is 1,200 a second").isEqualTo(4);
        assertThat(g.sample(SECOND / 2 + 3 * SECOND, 600 + 2_400)).as("2,400 in 3 s is 800 a second").isEqualTo(4);
    }

    @Test
    void fiveQuietSecondsInARowHalveTheWorkers() {
        WorkerGovernor g = new WorkerGovernor(16);
        long[] clock = {0};
        long[] reads = {0};
        g.sample(0, 0);
        run(g, clock, reads, 5_000, 4);
        assertThat(g.active()).isEqualTo(16);
        assertThat(run(g, clock, reads, 100, 4)).isEqualTo(16);
        assertThat(run(g, clock, reads, 100, 1)).isEqualTo(8);
        assertThat(run(g, clock, reads, 100, 5)).isEqualTo(4);
        assertThat(run(g, clock, reads, 100, 10)).isEqualTo(1);
        assertThat(run(g, clock, reads, 100, 20)).isEqualTo(1);
    }

    @Test
    void aRateBetweenTheThresholdsHoldsTheCountAndRestartsTheQuietRun() {
        WorkerGovernor g = new WorkerGovernor(16);
        long[] clock = {0};
        long[] reads = {0};
        g.sample(0, 0);
        run(g, clock, reads, 5_000, 1);
        assertThat(g.active()).isEqualTo(4);
        assertThat(run(g, clock, reads, 500, 30)).as("between 200 and 1,000 a second: neither").isEqualTo(4);
        run(g, clock, reads, 0, 4);
        run(g, clock, reads, 500, 1);
        assertThat(run(g, clock, reads, 0, 4)).as("the quiet run started again").isEqualTo(4);
        assertThat(run(g, clock, reads, 0, 1)).isEqualTo(2);
    }

    @Test
    void theQuietTimeIsMeasuredInTimeNotInReadings() {
        WorkerGovernor g = new WorkerGovernor(16);
        g.sample(0, 0);
        g.sample(SECOND / 2, 5_000);
        assertThat(g.active()).isEqualTo(4);
        long t = SECOND / 2;
        for (int i = 0; i < 9; i++) {
            t += SECOND / 2;
            assertThat(g.sample(t, 5_000)).as("quiet for %d ms", (i + 1) * 500).isEqualTo(4);
        }
        t += SECOND / 2;
        assertThat(g.sample(t, 5_000)).as("quiet for 5 s, in ten readings").isEqualTo(2);
    }

    @Test
    void aCounterThatGoesBackIsANewBaseline() {
        WorkerGovernor g = new WorkerGovernor(16);
        g.sample(0, 10_000_000);
        assertThat(g.sample(SECOND, 50)).as("the target restarted: no rate from a negative difference").isEqualTo(1);
        assertThat(g.sample(2 * SECOND, 5_050)).isEqualTo(4);
    }

    @Test
    void oneWorkerConfiguredStaysOne() {
        WorkerGovernor g = new WorkerGovernor(1);
        long[] clock = {0};
        long[] reads = {0};
        g.sample(0, 0);
        assertThat(run(g, clock, reads, 50_000, 5)).isEqualTo(1);
        assertThatThrownBy(() -> new WorkerGovernor(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
