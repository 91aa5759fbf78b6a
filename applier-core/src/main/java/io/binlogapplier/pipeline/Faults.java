package io.binlogapplier.pipeline;

import io.binlogapplier.transaction.Transaction;

/**
 * Where a test makes a thread of the pipeline fail on purpose (an {@link OutOfMemoryError}, say),
 * to prove that no failure commits part of a source transaction. Production runs use {@link #NONE}.
 * Implementations are called on the thread named by the point and must be thread-safe.
 */
interface Faults {
    Faults NONE = (point, part) -> { };

    /** The threads a fault can hit. */
    enum Point {
        /** The reader, before it hands an event on (part is null). */
        READER_EVENT,
        /** The scheduler, before it decides a transaction part. */
        SCHEDULER_PART,
        /** A worker, after it applied a transaction part inside the open target transaction. */
        WORKER_PART_APPLIED
    }

    /** Throws (anything, an Error included) to fail the pipeline at {@code point}. */
    void at(Point point, Transaction part);
}
