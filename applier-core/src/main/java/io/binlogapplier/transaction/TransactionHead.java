package io.binlogapplier.transaction;

import io.binlogapplier.binlog.BinlogEvent;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourceGtid;

/**
 * What is known of a source transaction when it starts; shared by all its parts.
 *
 * @param sequence the transaction's ordinal in this run of the stream (1, 2, 3 …)
 * @param gtid null for sources without GTIDs (MySQL anonymous transactions)
 * @param start coordinates of the transaction's first event
 * @param timestampSeconds the source's header timestamp of the transaction's first event
 * @param format the FORMAT_DESCRIPTION event in force for this transaction (null if none was seen)
 */
public record TransactionHead(long sequence, SourceGtid gtid, CommitGroup group, BinlogCoordinates start,
                              long timestampSeconds, BinlogEvent.FormatDescription format) {
}
