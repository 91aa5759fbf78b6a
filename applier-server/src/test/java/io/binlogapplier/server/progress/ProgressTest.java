package io.binlogapplier.server.progress;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {
    private static final long S = 1_000_000_000L;

    @Test
    void theEtaIsWhatIsLeftOverHowFastItShrank() {
        // 30 MB behind, 20 MB 10 s later: 1 MB/s net, 20 s to go
        assertThat(Progress.etaSeconds(30e6, 20e6, 10)).isEqualTo(OptionalLong.of(20));
        assertThat(Progress.etaSeconds(10, 9.5, 30)).isEqualTo(OptionalLong.of(570));
    }

    @Test
    void aBacklogThatGrowsOrStandsStillHasNoEta() {
        assertThat(Progress.etaSeconds(20e6, 25e6, 10)).isEmpty();
        assertThat(Progress.etaSeconds(20e6, 20e6, 10)).isEmpty();
        assertThat(Progress.etaSeconds(Double.NaN, 20e6, 10)).isEmpty();
        assertThat(Progress.etaSeconds(30e6, 20e6, 0)).isEmpty();
        assertThat(Progress.etaSeconds(30e6, 0, 10)).isEqualTo(OptionalLong.of(0));
    }

    @Test
    void theEtaComesFromTheBytesBehindWhenKnownElseFromTheLag() {
        Progress.Sample a = new Progress.Sample(0, 100, 3_000_000, 50, false);
        Progress.Sample b = new Progress.Sample(10 * S, 1100, 1_000_000, 45, false);
        assertThat(Progress.eta(a, b)).isEqualTo(OptionalLong.of(5)); // 2 MB in 10 s, 1 MB left
        Progress.Sample unknownA = new Progress.Sample(0, 100, -1, 50, false);
        Progress.Sample unknownB = new Progress.Sample(10 * S, 1100, -1, 40, false);
        assertThat(Progress.eta(unknownA, unknownB)).isEqualTo(OptionalLong.of(40)); // lag falls 1 s per s
    }

    @Test
    void theLineNamesRateLagBytesBehindAndEtaAndIsSilentWhenCaughtUp() {
        Progress.Sample a = new Progress.Sample(0, 100, 3 * 1024 * 1024, 50, false);
        Progress.Sample b = new Progress.Sample(30 * S, 30_100, 1024 * 1024, 12.34, false);

        assertThat(Progress.line(a, b)).isEqualTo("progress: applied 1000 transactions/s (30000 in 30 s), lag 12.3 s,"
            + " 1.0 MiB behind, caught up in about 15s");
        assertThat(Progress.line(a, new Progress.Sample(30 * S, 30_100, 0, 0, true))).isNull();
        assertThat(Progress.line(b, new Progress.Sample(60 * S, 30_100, 2 * 1024 * 1024, Double.NaN, false)))
            .isEqualTo("progress: applied 0 transactions/s (0 in 30 s), lag unknown, 2.0 MiB behind,"
                + " not catching up (the backlog did not shrink)");
    }

    @Test
    void theFirstLineAfterAStartWhoseFirstSampleKnewNothingGivesNoEstimateRatherThanNotCatchingUp() {
        // sampled while starting: no applied position yet (bytes unknown), no lag yet
        Progress.Sample starting = new Progress.Sample(0, 0, -1, Double.NaN, true);
        Progress.Sample applying = new Progress.Sample(30 * S, 350_135, 11_429_478, 198.9, false);

        assertThat(Progress.line(starting, applying)).isEqualTo("progress: applied 11671 transactions/s (350135 in"
            + " 30 s), lag 198.9 s, 10.9 MiB behind, no estimate yet (the backlog is known from this line on)");
        // bytes known only now, but the lag in both: the lag decides
        Progress.Sample lagOnly = new Progress.Sample(0, 0, -1, 150, false);
        assertThat(Progress.line(lagOnly, applying)).endsWith("not catching up (the backlog did not shrink)");
    }

    @Test
    void durationsAndSizesReadAsPeopleWriteThem() {
        assertThat(Progress.duration(3725)).isEqualTo("1h 2m 5s");
        assertThat(Progress.duration(65)).isEqualTo("1m 5s");
        assertThat(Progress.bytes(512)).isEqualTo("512 bytes");
        assertThat(Progress.bytes(1536)).isEqualTo("1.5 KiB");
        assertThat(Progress.bytes(5L << 30)).isEqualTo("5.0 GiB");
    }
}
