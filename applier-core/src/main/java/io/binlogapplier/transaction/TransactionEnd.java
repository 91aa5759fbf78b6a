package io.binlogapplier.transaction;

import io.binlogapplier.position.BinlogCoordinates;

/**
 * How a source transaction ended.
 *
 * @param end coordinates just past its last event: the resume point once it is applied
 * @param commitMicros when the source committed it, microseconds since the epoch (MySQL 8 gives
 *     microseconds; otherwise the second of the terminating event)
 * @param rollback the source logged ROLLBACK (non-transactional changes that must still be applied)
 */
public record TransactionEnd(BinlogCoordinates end, long commitMicros, boolean rollback) {
}
