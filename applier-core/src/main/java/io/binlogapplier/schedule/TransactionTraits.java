package io.binlogapplier.schedule;

/**
 * What the scheduler needs to know of a transaction beyond its head.
 *
 * @param barrier must run alone: after everything before it committed, before anything after it starts
 * @param barrierReason why, as a metrics tag (ddl, large_transaction, source_rollback, statement_dml,
 *     non_transactional), null when not a barrier
 * @param pending its effects cannot share a transaction with the position update (DDL,
 *     non-transactional tables): the position row records it as pending before it runs
 * @param writeSet hashes of every primary/unique key value it touches (optimistic mode)
 */
public record TransactionTraits(boolean barrier, String barrierReason, boolean pending, long[] writeSet) {
    public static final long[] NO_KEYS = new long[0];

    public static TransactionTraits ordinary(long[] writeSet) {
        return new TransactionTraits(false, null, false, writeSet);
    }

    public static TransactionTraits barrier(String reason, boolean pending) {
        return new TransactionTraits(true, reason, pending, NO_KEYS);
    }
}
