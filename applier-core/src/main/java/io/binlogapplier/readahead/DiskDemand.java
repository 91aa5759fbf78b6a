package io.binlogapplier.readahead;

/**
 * Whether the target waits on its disk, for {@code apply.read_ahead.enabled: auto}: from samples of
 * its {@code Innodb_buffer_pool_reads} (pages read from disk because they were not in the buffer
 * pool), at least {@value #READS_PER_SECOND} a second over the last interval of at least a second.
 * A target whose data fits its buffer pool reads next to nothing from disk, and read-ahead there
 * would only add statements. Pure; one owner at a time (callers synchronize).
 */
final class DiskDemand {
    static final long READS_PER_SECOND = 100;
    static final long INTERVAL_NANOS = 1_000_000_000L;

    private long sampledAt = Long.MIN_VALUE;
    private long reads;
    private boolean haveBase;
    private boolean waiting;

    /** True when a new sample is due at {@code nanos}. */
    boolean due(long nanos) {
        return sampledAt == Long.MIN_VALUE || nanos - sampledAt >= INTERVAL_NANOS;
    }

    /** Takes a sample: {@code bufferPoolReads} read at {@code nanos}; returns the verdict. */
    boolean sample(long nanos, long bufferPoolReads) {
        if (haveBase && nanos > sampledAt) {
            long perSecond = (bufferPoolReads - reads) * 1_000_000_000L / (nanos - sampledAt);
            waiting = perSecond >= READS_PER_SECOND;
        }
        sampledAt = nanos;
        reads = bufferPoolReads;
        haveBase = true;
        return waiting;
    }

    /** The sample at {@code nanos} could not be read: not waiting, and no rate until two good samples. */
    void failed(long nanos) {
        sampledAt = nanos;
        haveBase = false;
        waiting = false;
    }

    /** The target read at least {@value #READS_PER_SECOND} pages a second from disk at the last sample. */
    boolean waiting() {
        return waiting;
    }
}
