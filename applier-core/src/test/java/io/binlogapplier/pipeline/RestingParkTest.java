package io.binlogapplier.pipeline;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RestingParkTest {
    @Test
    void aRestingWorkerSleepsAsLongAsTheRingTakesToFillAt500kSlotsASecond() {
        assertThat(ApplyWorker.restingParkNanos(4096)).isEqualTo(8_192_000); // the default ring: about 8 ms
        assertThat(ApplyWorker.restingParkNanos(16)).isEqualTo(32_000); // the smallest ring: 32 µs, so the reader barely waits
    }

    @Test
    void neverLongerThan10Milliseconds() {
        assertThat(ApplyWorker.restingParkNanos(1 << 20)).isEqualTo(10_000_000);
        assertThat(ApplyWorker.restingParkNanos(5_000)).isEqualTo(10_000_000);
    }
}
