package io.binlogapplier.schedule;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourceGtid;
import io.binlogapplier.transaction.CommitGroup;
import io.binlogapplier.transaction.Transaction;
import io.binlogapplier.transaction.TransactionEnd;
import io.binlogapplier.transaction.TransactionHead;

import java.util.List;

/** Builds transactions for scheduler tests: MariaDB GTIDs 0-1-n at offsets 1000*n. */
final class Transactions {
    private Transactions() {
    }

    static Transaction mariadb(long seq, long commitId) {
        return of(seq, new CommitGroup(commitId, -1, -1, "mysql-bin.000001", 0), 100);
    }

    static Transaction mysql(long seq, String file, long lastCommitted, long sequenceNumber) {
        return of(seq, new CommitGroup(-1, lastCommitted, sequenceNumber, file, 0), 100);
    }

    static Transaction of(long seq, CommitGroup group, long bytes) {
        TransactionHead head = new TransactionHead(seq, new SourceGtid.Mariadb(0, 1, seq), group,
            new BinlogCoordinates(group.binlogFile().isEmpty() ? "mysql-bin.000001" : group.binlogFile(), seq * 1000),
            0, null);
        TransactionEnd end = new TransactionEnd(new BinlogCoordinates(head.start().file(), seq * 1000 + 500),
            seq * 1_000_000L, false);
        return new Transaction(head, 0, List.of(), bytes, end, false, false);
    }

    static Transaction part(long seq, int part, boolean last, long bytes) {
        TransactionHead head = new TransactionHead(seq, new SourceGtid.Mariadb(0, 1, seq), CommitGroup.NONE,
            new BinlogCoordinates("mysql-bin.000001", seq * 1000), 0, null);
        TransactionEnd end = last ? new TransactionEnd(new BinlogCoordinates("mysql-bin.000001", seq * 1000 + 500),
            0, false) : null;
        return new Transaction(head, part, List.of(), bytes, end, false, false);
    }
}
