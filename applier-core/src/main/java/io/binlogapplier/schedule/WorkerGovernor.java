package io.binlogapplier.schedule;

/**
 * How many workers take new units under {@code apply.workers: auto}. Pure: fed the target's
 * {@code Innodb_buffer_pool_reads} (pages read from disk because they were not in the buffer pool)
 * every half second or so; not thread-safe (one sampling thread).
 *
 * <p>Why that signal: on a target whose data fits its buffer pool, applying is CPU work, and on a
 * small machine more workers only add contention (on the benchmark's 2 cores, 4 and 16 workers were
 * up to a quarter slower than one). On a target that reads pages from disk, one worker waits for
 * one read after another, and more workers keep more reads in flight (16 workers took 0.5–0.7 of one
 * worker's time there). The page reads the target counts say which of the two it is, without
 * any privilege beyond a connection, whoever causes them.
 *
 * <p>The rule: start with one worker; at each reading that shows at least {@link #UP_PAGES_PER_SECOND}
 * pages read a second since the one before, multiply the workers by {@value #GROWTH} (up to the
 * maximum: 1, 4, 16 in two readings, about a second; doubling took 2.5 s to reach 16, while the
 * I/O-bound benchmark's catch-up ran at a third of its later rate); once the rate
 * has stayed below {@link #DOWN_PAGES_PER_SECOND} for {@link #QUIET_NANOS}, halve them (and again
 * after as long again). The gap between the two rates and the quiet time keep the count from swinging
 * with each reading.
 */
public final class WorkerGovernor {
    /** Pages read from disk a second from which one worker is taken to be waiting on the disk. */
    public static final long UP_PAGES_PER_SECOND = 1_000;
    /** Below this rate the target is taken to work from memory. */
    public static final long DOWN_PAGES_PER_SECOND = 200;
    /** How long the rate stays below {@link #DOWN_PAGES_PER_SECOND} before the workers are halved. */
    public static final long QUIET_NANOS = 5_000_000_000L;
    /** What the workers are multiplied by at a reading of at least {@link #UP_PAGES_PER_SECOND}. */
    public static final int GROWTH = 4;

    private final int max;
    private int active = 1;
    private boolean sampled;
    private long lastNanos;
    private long lastReads;
    /** Start of the quiet time so far (the reading before the first quiet one); -1: not quiet. */
    private long quietSince = -1;
    private long lastRate;

    /** @param max the workers configured (connections); at least 1 */
    public WorkerGovernor(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1");
        }
        this.max = max;
    }

    /**
     * One reading of the counter.
     *
     * @param nowNanos a monotonic clock (System.nanoTime)
     * @param pagesRead the target's {@code Innodb_buffer_pool_reads} now
     * @return the workers to use from now on
     */
    public int sample(long nowNanos, long pagesRead) {
        if (!sampled || pagesRead < lastReads || nowNanos <= lastNanos) {
            // The first reading, or the counter went back (the target restarted): a new baseline.
            sampled = true;
            lastNanos = nowNanos;
            lastReads = pagesRead;
            return active;
        }
        long rate = (pagesRead - lastReads) * 1_000_000_000L / (nowNanos - lastNanos);
        long intervalStart = lastNanos;
        lastNanos = nowNanos;
        lastReads = pagesRead;
        lastRate = rate;
        if (rate >= UP_PAGES_PER_SECOND) {
            quietSince = -1;
            active = Math.min(max, active * GROWTH);
        } else if (rate < DOWN_PAGES_PER_SECOND) {
            if (quietSince < 0) {
                quietSince = intervalStart;
            }
            if (nowNanos - quietSince >= QUIET_NANOS) {
                quietSince = nowNanos;
                active = Math.max(1, active / 2);
            }
        } else {
            quietSince = -1;
        }
        return active;
    }

    public int active() {
        return active;
    }

    /** Pages read from disk a second between the last two readings (0 before there were two). */
    public long lastRate() {
        return lastRate;
    }
}
