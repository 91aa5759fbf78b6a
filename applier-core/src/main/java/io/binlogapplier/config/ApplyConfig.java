package io.binlogapplier.config;

import java.time.Duration;

/**
 * The {@code apply:} section.
 *
 * @param method how row changes reach the target
 * @param workers worker connections applying units in parallel ({@link #AUTO_WORKERS} under
 *     {@code workers: auto})
 * @param unitMaxTransactions block commit: most source transactions in one target transaction while
 *     more than one worker takes units
 * @param unitMaxTransactionsAlone the same while one worker takes units ({@link
 *     #UNIT_MAX_TRANSACTIONS_ALONE} under {@code unit_max_transactions: auto}, else equal to
 *     {@code unitMaxTransactions})
 * @param unitMaxBytes block commit: most row-event bytes in one target transaction
 * @param unitMaxDelay block commit: a unit is cut once its first transaction waited this long
 * @param ringEntries the ring's capacity in entries (a power of two)
 * @param ringBytes the most event bytes received but not yet committed
 * @param retries how often a unit that lost a lock conflict is retried before the applier stops
 * @param netEffect the SQL method applies each table's row changes of a unit as their net effect per
 *     key, where that is provably the same as applying them in order
 * @param readAhead what is read into the target's buffer pool ahead of the workers
 * @param workersAuto {@code workers: auto}: of the {@code workers} connections, one takes new units
 *     while the target works from memory, more while it reads pages from disk
 * @param leanBeforeImages BINLOG statements to a MariaDB target carry, in the before images of UPDATE
 *     and DELETE row events on InnoDB tables with a primary key, only that key's columns
 * @param leanAfterImages BINLOG statements to a MariaDB target carry, in the after images of UPDATE
 *     row events on the same tables, only the columns whose value changed (off unless turned on)
 */
public record ApplyConfig(
    ApplyMode mode,
    ApplyMethod method,
    int workers,
    int unitMaxTransactions,
    int unitMaxTransactionsAlone,
    long unitMaxBytes,
    Duration unitMaxDelay,
    int ringEntries,
    long ringBytes,
    int retries,
    boolean netEffect,
    ReadAheadConfig readAhead,
    boolean workersAuto,
    boolean leanBeforeImages,
    boolean leanAfterImages
) {
    /** The connections {@code workers: auto} opens, and the most workers it uses at once. */
    public static final int AUTO_WORKERS = 16;
    /** {@code unit_max_transactions: auto}: most transactions per unit while more than one worker takes units. */
    public static final int UNIT_MAX_TRANSACTIONS = 200;
    /** {@code unit_max_transactions: auto}: most transactions per unit while one worker takes units. */
    public static final int UNIT_MAX_TRANSACTIONS_ALONE = 1000;

    /**
     * Read-ahead runs at all: {@code enabled: true}, or {@code auto} with a fixed number of workers.
     * Under {@code workers: auto} the governor answers the sign read-ahead waits for (the target reading
     * pages from its disk) with more workers, and read-ahead under {@code auto} stands down while more
     * than two are busy; it read at most 66 row changes in a whole I/O-bound catch-up there, and the
     * runs with it were no faster (docs/benchmark.md). So {@code auto} does not start it beside them.
     */
    public boolean readAheadRuns() {
        return readAhead.enabled() == ReadAheadConfig.Enabled.ON
            || (readAhead.enabled() == ReadAheadConfig.Enabled.AUTO && !workersAuto);
    }

    /** A fixed number of workers. */
    public ApplyConfig(ApplyMode mode, ApplyMethod method, int workers, int unitMaxTransactions, long unitMaxBytes,
                       Duration unitMaxDelay, int ringEntries, long ringBytes, int retries, boolean netEffect,
                       ReadAheadConfig readAhead) {
        this(mode, method, workers, unitMaxTransactions, unitMaxTransactions, unitMaxBytes, unitMaxDelay, ringEntries,
            ringBytes, retries, netEffect, readAhead, false, true, false);
    }
}
