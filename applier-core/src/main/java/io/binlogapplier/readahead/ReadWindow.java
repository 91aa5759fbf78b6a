package io.binlogapplier.readahead;

import java.util.ArrayDeque;

/**
 * How far read-ahead may run ahead of the workers, in row changes. The frontier is the oldest
 * source transaction a worker is applying (by its sequence number in the stream); a transaction
 * before it is late (a worker has passed it, reading it now would only compete with the workers);
 * one at or after it may be read while the rows read for transactions at or after the frontier,
 * itself included, stay within the window. Past the window, pages read now could be evicted from
 * the buffer pool before a worker needs them. Pure; thread-safe.
 */
final class ReadWindow {
    enum Verdict {
        /** read it now */
        READ,
        /** the window is full: wait for the workers to move on */
        WAIT,
        /** a worker is past it already */
        LATE
    }

    private final int rows;
    /** {sequence, rows} of every transaction read and not yet behind the frontier, oldest first. */
    private final ArrayDeque<long[]> read = new ArrayDeque<>();
    private long ahead;

    ReadWindow(int rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("a window of " + rows + " rows");
        }
        this.rows = rows;
    }

    /**
     * Decides for the transaction {@code sequence} of {@code changes} row changes, and counts it in
     * the window when the verdict is READ (a transaction larger than the window is read alone).
     */
    synchronized Verdict admit(long sequence, int changes, long frontier) {
        while (!read.isEmpty() && read.peekFirst()[0] < frontier) {
            ahead -= read.pollFirst()[1];
        }
        if (sequence < frontier) {
            return Verdict.LATE;
        }
        if (ahead > 0 && ahead + changes > rows) {
            return Verdict.WAIT;
        }
        read.addLast(new long[] {sequence, changes});
        ahead += changes;
        return Verdict.READ;
    }

    int rows() {
        return rows;
    }

    /** Row changes read at or after the frontier last seen. */
    synchronized long ahead() {
        return ahead;
    }
}
