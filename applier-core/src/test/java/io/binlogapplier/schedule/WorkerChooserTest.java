package io.binlogapplier.schedule;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerChooserTest {
    @Test
    void aUnitThatMustWaitGoesToTheWorkerItWaitsFor() {
        assertThat(new WorkerChooser(4).choose(new int[] {0, 0, 5, 0}, 2)).isEqualTo(2);
    }

    @Test
    void otherwiseTheLeastLoadedWorkerWins() {
        assertThat(new WorkerChooser(4).choose(new int[] {3, 1, 2, 4}, -1)).isEqualTo(1);
    }

    @Test
    void tiesRotate() {
        WorkerChooser c = new WorkerChooser(3);
        int[] idle = {0, 0, 0};
        assertThat(c.choose(idle, -1)).isEqualTo(0);
        assertThat(c.choose(idle, -1)).isEqualTo(1);
        assertThat(c.choose(idle, -1)).isEqualTo(2);
        assertThat(c.choose(idle, -1)).isEqualTo(0);
    }

    @Test
    void onlyTheActiveWorkersTakeNewUnits() {
        WorkerChooser c = new WorkerChooser(8);
        int[] idle = new int[8];
        assertThat(c.choose(idle, -1, 2)).isEqualTo(0);
        assertThat(c.choose(idle, -1, 2)).isEqualTo(1);
        assertThat(c.choose(idle, -1, 2)).isEqualTo(0);
        assertThat(c.choose(new int[] {3, 1, 0, 0, 0, 0, 0, 0}, -1, 2)).isEqualTo(1);
        assertThat(c.choose(idle, -1, 1)).isEqualTo(0);
        assertThat(c.choose(idle, -1, 1)).isEqualTo(0);
    }

    @Test
    void aUnitThatMustWaitFollowsItsWorkerEvenWhenThatWorkerIsNoLongerActive() {
        assertThat(new WorkerChooser(8).choose(new int[8], 6, 1)).isEqualTo(6);
    }
}
