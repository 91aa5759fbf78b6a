package io.binlogapplier.readahead;

/**
 * Whether read-ahead makes apply faster, for {@code apply.read_ahead.enabled: auto} while the
 * target reads pages from disk: measured, not assumed. A trial runs four phases of
 * {@value #PHASE_MILLIS} ms with read-ahead on, off, off, on (so a load that speeds up or slows
 * down steadily favours neither), counting the workers' progress in each after its first
 * {@value #SETTLE_MILLIS} ms (pages read before a phase still help in its first moments, and a
 * window must fill before it helps). Read-ahead is then kept on for {@value #HOLD_MILLIS} ms if the
 * workers went at least {@value #MARGIN_PERCENT}% faster with it, else kept off as long, and the next
 * trial follows. Its reads cost the target CPU and page reads of their own; on a disk that answers
 * quickly they can cost a worker more than the waits they save (measured: one worker 32% slower on a
 * disk doing 20,700 random reads a second, 17% faster on ones doing 12,800–16,700).
 *
 * <p>Pure; one caller at a time (callers synchronize). Times are {@link System#nanoTime} values,
 * progress any count that grows as the workers apply (the stream sequence of the oldest transaction a
 * worker is applying).
 */
final class Trial {
    static final long PHASE_MILLIS = 4_000;
    static final long SETTLE_MILLIS = 1_000;
    static final long HOLD_MILLIS = 120_000;
    static final int MARGIN_PERCENT = 5;
    private static final long PHASE = PHASE_MILLIS * 1_000_000L;
    private static final long SETTLE = SETTLE_MILLIS * 1_000_000L;
    private static final long HOLD = HOLD_MILLIS * 1_000_000L;
    /** read-ahead on or off in each phase of a trial */
    private static final boolean[] PLAN = {true, false, false, true};

    /** What a finished trial measured: progress a second with read-ahead and without it. */
    record Result(double withIt, double without, boolean on) {
    }

    /** -1 before a trial; 0 to PLAN.length - 1 in one; PLAN.length holding a verdict. */
    private int phase = -1;
    private long phaseStart;
    private long measureStart;
    private long progressAtMeasure;
    private boolean measuring;
    private long onNanos;
    private long onProgress;
    private long offNanos;
    private long offProgress;
    private Result last;

    /**
     * Read-ahead should run at {@code now}, the workers' progress being {@code progress}. The first
     * call starts a trial.
     */
    boolean on(long now, long progress) {
        if (phase < 0 || (phase == PLAN.length && now - phaseStart >= HOLD)) {
            begin(now);
        }
        if (phase == PLAN.length) {
            return last.on();
        }
        if (!measuring && now - phaseStart >= SETTLE) {
            measuring = true;
            measureStart = now;
            progressAtMeasure = progress;
        }
        if (now - phaseStart >= PHASE) {
            if (measuring) {
                if (PLAN[phase]) {
                    onNanos += now - measureStart;
                    onProgress += progress - progressAtMeasure;
                } else {
                    offNanos += now - measureStart;
                    offProgress += progress - progressAtMeasure;
                }
            }
            phase++;
            phaseStart = now;
            measuring = false;
            if (phase == PLAN.length) {
                double with = rate(onProgress, onNanos);
                double without = rate(offProgress, offNanos);
                last = new Result(with, without, with > 0 && with * 100 >= without * (100 + MARGIN_PERCENT));
                return last.on();
            }
        }
        return PLAN[phase];
    }

    /**
     * The conditions for read-ahead ended (the target stopped reading from disk, more workers got
     * busy): what a trial measured so far no longer holds, and the next call starts a new one.
     */
    void reset() {
        phase = -1;
    }

    /** The last finished trial, or null. */
    Result last() {
        return last;
    }

    /** A trial is running (not holding a verdict). */
    boolean trying() {
        return phase >= 0 && phase < PLAN.length;
    }

    private void begin(long now) {
        phase = 0;
        phaseStart = now;
        measuring = false;
        onNanos = 0;
        onProgress = 0;
        offNanos = 0;
        offProgress = 0;
    }

    private static double rate(long progress, long nanos) {
        return nanos <= 0 ? 0 : progress * 1e9 / nanos;
    }
}
