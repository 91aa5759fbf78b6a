package io.binlogapplier.position;

/**
 * Names one source transaction: its GTID (empty for a source without GTIDs) and where its first
 * event starts. What the last error and the skipped-transaction record keep.
 */
public record TransactionRef(String gtid, BinlogCoordinates start) {
    public TransactionRef {
        gtid = gtid == null ? "" : gtid;
    }

    @Override
    public String toString() {
        return (gtid.isEmpty() ? "" : gtid + " ") + "at " + start;
    }
}
