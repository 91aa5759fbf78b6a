package io.binlogapplier.readahead;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TrialTest {
    private static final long MS = 1_000_000L;

    /**
     * Drives a trial from {@code start} in steps of 50 ms (as the readers' poll does) until it holds a
     * verdict, the workers applying {@code withIt} transactions a second while read-ahead is on and
     * {@code without} while it is off. Returns the time the verdict came.
     */
    private static long drive(Trial t, long start, long[] progress, double withIt, double without) {
        long now = start;
        boolean on = t.on(now, progress[0]);
        while (t.trying()) {
            now += 50 * MS;
            progress[0] += Math.round((on ? withIt : without) * 0.05);
            on = t.on(now, progress[0]);
        }
        return now;
    }

    @Test
    void aTrialReadsAheadOnOffOffOnThenKeepsReadAheadWhenTheWorkersWereFasterWithIt() {
        Trial t = new Trial();
        long[] progress = {1_000};
        StringBuilder plan = new StringBuilder();
        long now = 0;
        boolean on = t.on(now, progress[0]);
        char previous = ' ';
        while (t.trying()) {
            char c = on ? '+' : '-';
            if (c != previous) {
                plan.append(c);
                previous = c;
            }
            now += 50 * MS;
            progress[0] += on ? 60 : 50; // 1,200 a second with it, 1,000 without
            on = t.on(now, progress[0]);
        }
        assertThat(plan).hasToString("+-+"); // on, off, off, on
        assertThat(now).isEqualTo(4 * Trial.PHASE_MILLIS * MS);
        assertThat(on).isTrue();
        assertThat(t.last().withIt()).isEqualTo(1_200, org.assertj.core.data.Offset.offset(1.0));
        assertThat(t.last().without()).isEqualTo(1_000, org.assertj.core.data.Offset.offset(1.0));
        // held for HOLD_MILLIS, whatever the workers do meanwhile
        assertThat(t.on(now + (Trial.HOLD_MILLIS - 1) * MS, progress[0])).isTrue();
        assertThat(t.trying()).isFalse();
        // then a new trial, starting with read-ahead on
        assertThat(t.on(now + Trial.HOLD_MILLIS * MS, progress[0])).isTrue();
        assertThat(t.trying()).isTrue();
    }

    @Test
    void readAheadIsKeptOffWhenItMadeTheWorkersSlowerOrLessThanTheMarginFaster() {
        Trial slower = new Trial();
        long end = drive(slower, 0, new long[] {0}, 700, 1_000);
        assertThat(slower.last().on()).isFalse();
        assertThat(slower.on(end + 30_000 * MS, 0)).isFalse();

        Trial slightly = new Trial();
        drive(slightly, 0, new long[] {0}, 1_030, 1_000); // 3% faster: not worth its reads
        assertThat(slightly.last().on()).isFalse();

        Trial enough = new Trial();
        drive(enough, 0, new long[] {0}, 1_060, 1_000);
        assertThat(enough.last().on()).isTrue();

        Trial idle = new Trial(); // caught up: no progress either way
        drive(idle, 0, new long[] {0}, 0, 0);
        assertThat(idle.last().on()).isFalse();
    }

    @Test
    void aLoadThatSpeedsUpSteadilyFavoursNeitherSide() {
        // read-ahead changes nothing; the workers go faster by 100 transactions a second every second
        Trial t = new Trial();
        long now = 0;
        long progress = 0;
        double rate = 1_000;
        t.on(now, progress);
        while (t.trying()) {
            now += 50 * MS;
            rate += 100 * 0.05;
            progress += Math.round(rate * 0.05);
            t.on(now, progress);
        }
        assertThat(t.last().withIt()).isEqualTo(t.last().without(), org.assertj.core.data.Offset.offset(5.0));
        assertThat(t.last().on()).isFalse();
    }

    @Test
    void theFirstPartOfEachPhaseIsNotMeasured() {
        // the workers apply a burst of 10,000 in the first 100 ms after read-ahead goes off (pages it
        // read still in the buffer pool), then nothing: without the settle time that burst would count
        Trial t = new Trial();
        long now = 0;
        long progress = 0;
        boolean on = t.on(now, progress);
        long phaseStart = 0;
        boolean previous = on;
        while (t.trying()) {
            now += 50 * MS;
            if (on != previous) {
                phaseStart = now - 50 * MS;
                previous = on;
            }
            if (on) {
                progress += 50;
            } else if (now - phaseStart <= 100 * MS) {
                progress += 5_000;
            }
            on = t.on(now, progress);
        }
        assertThat(t.last().without()).isZero();
        assertThat(t.last().on()).isTrue();
    }

    @Test
    void resetStartsTheNextTrialAfresh() {
        Trial t = new Trial();
        long[] progress = {0};
        drive(t, 0, progress, 700, 1_000);
        assertThat(t.last().on()).isFalse();
        t.reset();
        // the conditions came back: a new trial at once, its first phase with read-ahead
        assertThat(t.on(70_000 * MS, progress[0])).isTrue();
        assertThat(t.trying()).isTrue();
    }
}
