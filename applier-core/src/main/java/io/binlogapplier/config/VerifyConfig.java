package io.binlogapplier.config;

import java.time.Duration;

/**
 * The {@code verify:} section: how {@code binlog-applier verify} reads the two servers (docs/verify.md).
 * The run itself never reads it.
 *
 * @param chunkRows rows per compared chunk (by key range): each chunk is one short read on each server
 * @param rowsPerSecond source rows read per second at most, so verify does not starve production; 0: no limit
 * @param attempts how often a chunk whose rows change meanwhile is compared again before it is reported unverified
 * @param catchUpTimeout how long to wait for a running applier to reach the source's snapshot position
 */
public record VerifyConfig(int chunkRows, long rowsPerSecond, int attempts, Duration catchUpTimeout) {
    public static final VerifyConfig DEFAULT = new VerifyConfig(2000, 50_000, 6, Duration.ofSeconds(60));

    public VerifyConfig withChunkRows(int rows) {
        return new VerifyConfig(rows, rowsPerSecond, attempts, catchUpTimeout);
    }

    public VerifyConfig withRowsPerSecond(long rate) {
        return new VerifyConfig(chunkRows, rate, attempts, catchUpTimeout);
    }
}
