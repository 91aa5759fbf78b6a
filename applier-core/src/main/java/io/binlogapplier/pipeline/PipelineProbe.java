package io.binlogapplier.pipeline;

import io.binlogapplier.position.SourcePosition;

/**
 * Reads one running pipeline's state when asked (a metrics scrape), so that nothing is counted on
 * the hot path for gauges. Thread-safe; values are each read atomically but not as one snapshot.
 */
public interface PipelineProbe {
    /** Ring entries published and not yet released by every handler. */
    long ringEntries();

    /** Event bytes received and not yet committed (the {@code ring_bytes} budget in use). */
    long ringBytes();

    /** Workers inside a unit. */
    int busyWorkers();

    int workers();

    /** Workers that take new units ({@link #workers()} unless {@code apply.workers: auto} uses fewer). */
    default int activeWorkers() {
        return workers();
    }

    /** Source transactions committed on the target by this pipeline. */
    long appliedTransactions();

    /** The low-water mark: everything up to it is committed on the target. */
    SourcePosition appliedPosition();

    /** Source commit time of the last transaction at or before {@link #appliedPosition()}, µs since the epoch; 0: unknown. */
    long appliedCommitMicros();

    /** The most transactions that can be received and not yet committed at once. */
    int inFlightBound();
}
