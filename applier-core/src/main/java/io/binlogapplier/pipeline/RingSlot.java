package io.binlogapplier.pipeline;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.schedule.Decision;
import io.binlogapplier.schedule.TransactionTraits;
import io.binlogapplier.transaction.Transaction;

/**
 * One entry of the Disruptor ring: a transaction part, or a marker. The only mutable data object
 * in the pipeline: the publisher fills it, the scheduler annotates it, the owning worker takes the
 * transaction and clears the reference so the ring never pins old transactions.
 */
final class RingSlot {
    enum Kind { TRANSACTION, HEARTBEAT, END }

    Kind kind;
    Transaction transaction;
    BinlogCoordinates position;
    long timestampSeconds;
    /** Published with the slot; for END: true when the stream ended inside a transaction. */
    boolean abandoned;

    // written by the scheduler, read by workers
    TransactionTraits traits;
    Decision decision;
    boolean replay;

    void set(Transaction t) {
        clear();
        kind = Kind.TRANSACTION;
        transaction = t;
    }

    void marker(Kind k, BinlogCoordinates at, long timestamp, boolean abandonedPart) {
        clear();
        kind = k;
        position = at;
        timestampSeconds = timestamp;
        abandoned = abandonedPart;
    }

    void clear() {
        kind = null;
        transaction = null;
        position = null;
        timestampSeconds = 0;
        abandoned = false;
        traits = null;
        decision = null;
        replay = false;
    }
}
