package io.binlogapplier.verify;

/**
 * Keeps the rows verify reads from the source at or below a rate: after each read it sleeps until the
 * rows read so far would have taken that long at the rate. Not thread-safe (verify reads on one thread).
 */
final class Throttle {
    private final long rowsPerSecond;
    private final long startNanos = System.nanoTime();
    private long rows;

    /** @param rowsPerSecond 0: no limit */
    Throttle(long rowsPerSecond) {
        this.rowsPerSecond = rowsPerSecond;
    }

    void read(long n) throws InterruptedException {
        rows += Math.max(1, n);
        if (rowsPerSecond <= 0) {
            return;
        }
        long dueNanos = startNanos + rows * 1_000_000_000L / rowsPerSecond;
        long waitNanos = dueNanos - System.nanoTime();
        if (waitNanos > 0) {
            Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
        }
    }
}
