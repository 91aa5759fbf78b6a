package io.binlogapplier.readahead;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DiskDemandTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aTargetReadingPagesFromDiskIsWaitingOnItAndOneServingFromMemoryIsNot() {
        DiskDemand d = new DiskDemand();
        assertThat(d.due(0)).isTrue();
        assertThat(d.sample(0, 5_000)).as("no rate from one sample").isFalse();
        assertThat(d.due(S / 2)).isFalse();
        assertThat(d.due(S)).isTrue();
        // 7,000 pages read from disk in the second: an I/O-bound target
        assertThat(d.sample(S, 12_000)).isTrue();
        assertThat(d.waiting()).isTrue();
        // 50 in two seconds: everything it needs is in the buffer pool
        assertThat(d.sample(3 * S, 12_050)).isFalse();
        assertThat(d.sample(4 * S, 12_150)).isTrue();
        // a sample that could not be read: not waiting, and the next good one only sets a new base
        d.failed(5 * S);
        assertThat(d.waiting()).isFalse();
        assertThat(d.due(5 * S + S / 2)).isFalse();
        assertThat(d.sample(6 * S, 90_000)).isFalse();
        assertThat(d.sample(7 * S, 98_000)).isTrue();
    }
}
