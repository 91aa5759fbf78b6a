package io.binlogapplier.schedule;

/**
 * Block-commit bounds: a unit is cut before it would exceed any of them.
 *
 * @param maxTransactions most source transactions per unit
 * @param maxBytes most row-event bytes per unit
 * @param maxDelayNanos a unit is cut once its first transaction waited this long
 */
public record UnitBounds(int maxTransactions, long maxBytes, long maxDelayNanos) {
}
