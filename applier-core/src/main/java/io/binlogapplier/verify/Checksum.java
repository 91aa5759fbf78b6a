package io.binlogapplier.verify;

/**
 * The checksum of a chunk's rows on one server: how many, the XOR of a 64-bit hash of each row (an
 * order-free fingerprint) and the sum of a 32-bit one (so two equal rows do not cancel out).
 */
public record Checksum(long rows, long xor, long sum) {
    @Override
    public String toString() {
        return rows + " rows, " + Long.toHexString(xor) + "/" + Long.toHexString(sum);
    }
}
