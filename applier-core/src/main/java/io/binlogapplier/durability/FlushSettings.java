package io.binlogapplier.durability;

/**
 * The target's two global flush settings.
 *
 * @param flushLogAtTrxCommit {@code innodb_flush_log_at_trx_commit}
 * @param syncBinlog {@code sync_binlog}
 */
record FlushSettings(int flushLogAtTrxCommit, long syncBinlog) {
    /** Write the redo log at commit, flush it about once a second; leave binlog syncing to the OS. */
    static final FlushSettings RELAXED = new FlushSettings(2, 0);

    @Override
    public String toString() {
        return "innodb_flush_log_at_trx_commit=" + flushLogAtTrxCommit + ", sync_binlog=" + syncBinlog;
    }
}
