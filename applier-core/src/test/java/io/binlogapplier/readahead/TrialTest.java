package io.binlogapplier.readahead;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class TrialTest {
    private static final long MS = 1_000_000L;
    private static final long STEP = 50 * MS;

    /** The workers: transactions they apply in the step of 50 ms that ends at {@code now}. */
    private interface Workers {
        long applied(boolean readAhead, long now);
    }

    /**
     * Drives a trial from {@code start} in steps of 50 ms (as the readers' poll does) until it holds a
     * verdict; returns the time the verdict came.
     */
    private static long drive(Trial t, long start, Workers workers) {
        long now = start;
        long progress = 0;
        boolean on = t.on(now, progress);
        while (t.trying()) {
            now += STEP;
            progress += workers.applied(on, now);
            on = t.on(now, progress);
        }
        return now;
    }

    /** {@code withIt} transactions a second while read-ahead is on, {@code without} while it is off. */
    private static Workers steady(double withIt, double without) {
        return (on, now) -> Math.round((on ? withIt : without) * STEP / 1e9);
    }

    @Test
    void aTrialReadsAheadOnOffOffOnThenKeepsReadAheadWhenTheWorkersWereFasterWithIt() {
        Trial t = new Trial();
        StringBuilder plan = new StringBuilder();
        Workers faster = steady(1_200, 1_000);
        long end = drive(t, 0, (on, now) -> {
            char c = on ? '+' : '-';
            if (plan.isEmpty() || plan.charAt(plan.length() - 1) != c) {
                plan.append(c);
            }
            return faster.applied(on, now);
        });
        assertThat(plan).hasToString("+-+"); // on, off, off, on
        assertThat(end).isEqualTo(4 * Trial.PHASE_MILLIS * MS);
        assertThat(t.last().on()).isTrue();
        assertThat(t.last().withIt()).isEqualTo(1_200, Offset.offset(1.0));
        assertThat(t.last().without()).isEqualTo(1_000, Offset.offset(1.0));
        // held for HOLD_MILLIS, whatever the workers do meanwhile
        assertThat(t.on(end + (Trial.HOLD_MILLIS - 1) * MS, 0)).isTrue();
        assertThat(t.trying()).isFalse();
        // then a new trial, starting with read-ahead on
        assertThat(t.on(end + Trial.HOLD_MILLIS * MS, 0)).isTrue();
        assertThat(t.trying()).isTrue();
    }

    @Test
    void readAheadIsKeptOffWhenItMadeTheWorkersSlowerOrLessThanTheMarginFaster() {
        Trial slower = new Trial();
        long end = drive(slower, 0, steady(700, 1_000));
        assertThat(slower.last().on()).isFalse();
        assertThat(slower.on(end + 30_000 * MS, 0)).isFalse();

        Trial slightly = new Trial();
        drive(slightly, 0, steady(1_030, 1_000)); // 3% faster: not worth its reads
        assertThat(slightly.last().on()).isFalse();

        Trial enough = new Trial();
        drive(enough, 0, steady(1_060, 1_000));
        assertThat(enough.last().on()).isTrue();

        Trial idle = new Trial(); // caught up: no progress either way
        drive(idle, 0, steady(0, 0));
        assertThat(idle.last().on()).isFalse();
    }

    @Test
    void aLoadThatSpeedsUpSteadilyFavoursNeitherSide() {
        // read-ahead changes nothing; the workers go faster by 100 transactions a second every second
        Trial t = new Trial();
        drive(t, 0, (on, now) -> Math.round((1_000 + 100 * now / 1e9) * STEP / 1e9));
        assertThat(t.last().withIt()).isEqualTo(t.last().without(), Offset.offset(5.0));
        assertThat(t.last().on()).isFalse();
    }

    @Test
    void theFirstPartOfEachPhaseIsNotMeasured() {
        // the workers apply a burst of 10,000 in the first 100 ms after read-ahead goes off (pages it
        // read still in the buffer pool), then nothing: without the settle time that burst would count
        Trial t = new Trial();
        long[] offSince = {-1};
        drive(t, 0, (on, now) -> {
            if (on) {
                offSince[0] = -1;
                return 50;
            }
            if (offSince[0] < 0) {
                offSince[0] = now - STEP;
            }
            return now - offSince[0] <= 100 * MS ? 5_000 : 0;
        });
        assertThat(t.last().without()).isZero();
        assertThat(t.last().on()).isTrue();
    }

    @Test
    void resetStartsTheNextTrialAfresh() {
        Trial t = new Trial();
        drive(t, 0, steady(700, 1_000));
        assertThat(t.last().on()).isFalse();
        t.reset();
        // the conditions came back: a new trial at once, its first phase with read-ahead
        assertThat(t.on(70_000 * MS, 0)).isTrue();
        assertThat(t.trying()).isTrue();
    }
}
