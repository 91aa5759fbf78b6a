package io.binlogapplier.apply;

import io.binlogapplier.config.ApplyMethod;

/**
 * How a worker's {@link TransactionApplier} sends row changes.
 *
 * @param method {@link ApplyMethod#SQL} or {@link ApplyMethod#BINLOG} ({@code auto} resolved at start)
 * @param netEffect under the SQL method, apply each table's row changes of a unit as their net
 *     effect where that is provably the same as applying them in order ({@link NetEffect})
 * @param leanBeforeImages under BINLOG statements to MariaDB, before images carry only the primary
 *     key where the target finds rows by it ({@link LeanBeforeImages})
 */
public record ApplyOptions(ApplyMethod method, boolean netEffect, boolean leanBeforeImages) {
}
