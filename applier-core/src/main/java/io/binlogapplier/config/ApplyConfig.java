package io.binlogapplier.config;

import java.time.Duration;

/**
 * The {@code apply:} section.
 *
 * @param method how row changes reach the target
 * @param workers worker connections applying units in parallel
 * @param unitMaxTransactions block commit: most source transactions in one target transaction
 * @param unitMaxBytes block commit: most row-event bytes in one target transaction
 * @param unitMaxDelay block commit: a unit is cut once its first transaction waited this long
 * @param ringEntries the ring's capacity in entries (a power of two)
 * @param ringBytes the most event bytes received but not yet committed
 * @param retries how often a unit that lost a lock conflict is retried before the applier stops
 * @param netEffect the SQL method applies each table's row changes of a unit as their net effect per
 *     key, where that is provably the same as applying them in order
 * @param readAhead what is read into the target's buffer pool ahead of the workers
 */
public record ApplyConfig(
    ApplyMode mode,
    ApplyMethod method,
    int workers,
    int unitMaxTransactions,
    long unitMaxBytes,
    Duration unitMaxDelay,
    int ringEntries,
    long ringBytes,
    int retries,
    boolean netEffect,
    ReadAheadConfig readAhead
) {
}
