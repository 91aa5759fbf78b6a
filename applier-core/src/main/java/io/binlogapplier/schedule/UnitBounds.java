package io.binlogapplier.schedule;

/**
 * Block-commit bounds: a unit is cut before it would exceed any of them.
 *
 * @param maxTransactions most source transactions per unit while more than one worker takes units
 * @param maxTransactionsAlone most source transactions per unit while one worker takes units: nothing
 *     runs beside its units, so larger ones cost no parallelism and save the end of a unit and the
 *     start of the next
 * @param maxBytes most row-event bytes per unit
 * @param maxDelayNanos a unit is cut once its first transaction waited this long
 */
public record UnitBounds(int maxTransactions, int maxTransactionsAlone, long maxBytes, long maxDelayNanos) {
    /** The same bound on transactions whatever the workers. */
    public UnitBounds(int maxTransactions, long maxBytes, long maxDelayNanos) {
        this(maxTransactions, maxTransactions, maxBytes, maxDelayNanos);
    }

    /** The most transactions a unit may hold, whatever the workers. */
    public int mostTransactions() {
        return Math.max(maxTransactions, maxTransactionsAlone);
    }

    /** The bound on transactions while {@code activeWorkers} workers take units. */
    public int maxTransactions(int activeWorkers) {
        return activeWorkers == 1 ? maxTransactionsAlone : maxTransactions;
    }
}
