package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.BinlogEvent;
import io.binlogapplier.binlog.BinlogReader;
import io.binlogapplier.config.SourceConfig;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourceGtid;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.TransactionRef;
import io.binlogapplier.transaction.Transaction;
import io.binlogapplier.transaction.TransactionAssembler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the source's binlog from a saved position up to the next {@code n} whole transactions (or
 * the source's end), with the applier's own reader and transaction assembler: the same
 * transaction boundaries the applier sees, no filter applied.
 */
final class NextTransactions {
    private static final long PART_BYTES = 8L << 20;

    /** One source transaction: its GTID (null without GTIDs), where it starts and where it ends. */
    record Found(SourceGtid gtid, TransactionRef ref, BinlogCoordinates end) {
    }

    private NextTransactions() {
    }

    /**
     * @param sourceEnd where the source's binlog ended before reading: the search stops there
     * @return at most {@code n} transactions, fewer when the binlog ends first
     */
    static List<Found> read(SourceConfig source, SourcePosition from, int n, BinlogCoordinates sourceEnd,
                            long timeoutMillis) throws InterruptedException {
        List<Found> found = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<ApplierException> failure = new AtomicReference<>();
        TransactionAssembler assembler = new TransactionAssembler(from.coordinates().file(), PART_BYTES,
            new TransactionAssembler.Sink() {
                @Override
                public void transaction(Transaction part) {
                    if (!part.lastPart()) {
                        return;
                    }
                    synchronized (found) {
                        if (found.size() < n) {
                            found.add(new Found(part.head().gtid(), new TransactionRef(part.head().gtid() == null ? ""
                                : part.head().gtid().toString(), part.head().start()), part.end().end()));
                        }
                        if (found.size() >= n) {
                            done.countDown();
                        }
                    }
                }

                @Override
                public void heartbeat(BinlogCoordinates position, long timestampSeconds) {
                    done.countDown(); // the source has nothing more
                }

                @Override
                public void passed(BinlogCoordinates position) {
                    if (!position.file().isEmpty() && sourceEnd != null && position.atOrAfter(sourceEnd)) {
                        done.countDown();
                    }
                }
            });
        BinlogReader reader = new BinlogReader(source, "binlog-applier-skip-reader", false);
        reader.start(from, new BinlogReader.Listener() {
            @Override
            public void onEvent(BinlogEvent event) throws InterruptedException {
                assembler.accept(event);
            }

            @Override
            public void onEnd(ApplierException f) {
                failure.set(f);
                done.countDown();
            }
        });
        boolean ended = done.await(timeoutMillis, TimeUnit.MILLISECONDS);
        reader.stop();
        reader.join(5_000);
        synchronized (found) {
            if (found.size() < n && failure.get() != null) {
                throw failure.get();
            }
            if (!ended && found.size() < n) {
                throw new ApplierException(ExitCode.SOURCE_UNREACHABLE, "reading the source's binlog from " + from
                    + " found " + found.size() + " of " + n + " transactions in " + timeoutMillis / 1000 + " s");
            }
            return List.copyOf(found);
        }
    }
}
