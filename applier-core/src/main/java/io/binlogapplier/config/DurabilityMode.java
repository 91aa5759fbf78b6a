package io.binlogapplier.config;

/** What binlog-applier does with the target's flush settings ({@code durability.mode}). */
public enum DurabilityMode {
    /** innodb_flush_log_at_trx_commit=2 and sync_binlog=0 for the whole run; the originals are put back at stop. */
    RELAXED,
    /** The original settings while the lag is small, relaxed ones while it is above {@code lag_threshold}. */
    RELAXED_WHILE_LAGGING,
    /** Never change them (settings an earlier, crashed run left relaxed are still put back). */
    UNCHANGED
}
