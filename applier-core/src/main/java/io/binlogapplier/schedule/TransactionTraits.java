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
 * @param unkeyed optimistic mode, its write set was not computed (under {@code workers: auto} while
 *     one worker takes new units, where keys would buy nothing): it is ordered after every transaction
 *     before it, and every later one after it, as in conservative mode without commit groups
 */
public record TransactionTraits(boolean barrier, String barrierReason, boolean pending, long[] writeSet,
                                boolean unkeyed) {
    public static final long[] NO_KEYS = new long[0];
    private static final TransactionTraits UNKEYED = new TransactionTraits(false, null, false, NO_KEYS, true);

    public TransactionTraits(boolean barrier, String barrierReason, boolean pending, long[] writeSet) {
        this(barrier, barrierReason, pending, writeSet, false);
    }

    /** An ordinary transaction whose write set was not computed (see {@link #unkeyed()}). */
    public static TransactionTraits unkeyedOrdinary() {
        return UNKEYED;
    }

    public static TransactionTraits ordinary(long[] writeSet) {
        return new TransactionTraits(false, null, false, writeSet);
    }

    public static TransactionTraits barrier(String reason, boolean pending) {
        return new TransactionTraits(true, reason, pending, NO_KEYS);
    }
}
