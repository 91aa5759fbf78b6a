package io.binlogapplier.apply;

import io.binlogapplier.config.ApplyMethod;

/**
 * How a worker's {@link TransactionApplier} sends row changes.
 *
 * @param method {@link ApplyMethod#SQL} or {@link ApplyMethod#BINLOG} ({@code auto} resolved at start)
 * @param netEffect under the SQL method, apply each table's row changes of a unit as their net
 *     effect where that is provably the same as applying them in order ({@link NetEffect})
 * @param leanBeforeImages under BINLOG statements to MariaDB, before images carry only the primary
 *     key where the target finds rows by it ({@link LeanImages})
 * @param leanAfterImages under BINLOG statements to MariaDB, UPDATE after images carry only the
 *     columns that changed, on the same tables ({@link LeanImages})
 */
public record ApplyOptions(ApplyMethod method, boolean netEffect, boolean leanBeforeImages, boolean leanAfterImages) {
}
