package io.binlogapplier.verify;

import io.binlogapplier.position.BinlogCoordinates;

/**
 * One comparison of a chunk, read in this order: the source in a consistent snapshot at
 * {@code sourceBefore}; the target in a consistent snapshot together with the applier's saved
 * position {@code applied} (the state row commits with the data it covers, so the two agree); the
 * source again, in a new snapshot. The target never holds a source change the source had not
 * committed before the second read began, so the target's rows are the source's rows at some point
 * between {@code applied} and that second read.
 *
 * @param sourceBefore the source's binlog position of the first snapshot (an upper bound of it on MySQL)
 * @param before the chunk on the source in the first snapshot
 * @param applied the applier's saved position in the target's snapshot; null when there is no state row
 * @param target the chunk on the target
 * @param after the chunk on the source in the second snapshot
 */
public record Attempt(BinlogCoordinates sourceBefore, Checksum before, BinlogCoordinates applied, Checksum target,
                      Checksum after) {

    /** What one attempt shows about a chunk. */
    public enum Verdict {
        /** The target holds what the source held at one of the two snapshots. */
        MATCH,
        /**
         * The source's chunk was the same in both snapshots, the applier had applied at least up to the
         * first (so the target's state lies between them), and the target's chunk is different: the
         * target differs from the source at one point. (A chunk changed and changed back on the source
         * between the reads would look the same, so a differing chunk is confirmed by a second attempt.)
         */
        DIFFERS,
        /** The source's chunk changed between the two snapshots: no common point is known; try again. */
        CHANGING,
        /**
         * The applier had not reached the source's first snapshot (stopped, or lagging beyond the wait):
         * the source may have changed the chunk since the applier's position, so a difference proves nothing.
         */
        BEHIND
    }

    public Verdict verdict() {
        if (target.equals(before) || target.equals(after)) {
            return Verdict.MATCH;
        }
        if (!before.equals(after)) {
            return Verdict.CHANGING;
        }
        if (applied == null || !applied.atOrAfter(sourceBefore)) {
            return Verdict.BEHIND;
        }
        return Verdict.DIFFERS;
    }
}
