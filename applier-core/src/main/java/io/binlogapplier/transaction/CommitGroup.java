package io.binlogapplier.transaction;

/**
 * What the source recorded about which transactions it committed together, for conservative mode.
 *
 * @param commitId MariaDB commit_id (same value = same group commit), -1 when the GTID had none
 * @param lastCommitted MySQL logical clock, -1 when absent
 * @param sequenceNumber MySQL logical clock, -1 when absent; numbers restart in each binlog file
 * @param binlogFile the file the transaction is in, which scopes the MySQL clock
 * @param mariadbFlags MariaDB GTID flags2 (FL_TRANSACTIONAL, FL_ALLOW_PARALLEL, FL_WAITED, FL_DDL …), 0 for MySQL
 */
public record CommitGroup(long commitId, long lastCommitted, long sequenceNumber, String binlogFile, int mariadbFlags) {
    public static final CommitGroup NONE = new CommitGroup(-1, -1, -1, "", 0);

    public boolean hasMariadbCommitId() {
        return commitId >= 0;
    }

    public boolean hasLogicalClock() {
        return sequenceNumber >= 0;
    }
}
