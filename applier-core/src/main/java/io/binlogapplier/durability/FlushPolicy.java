package io.binlogapplier.durability;

import java.time.Duration;

/**
 * {@code durability.mode: relaxed_while_lagging}, as pure logic: relax as soon as the lag reaches
 * the threshold; go back to the original settings only once it has stayed below the threshold for
 * {@code strictAfter}, so that a lag hovering around the threshold does not flip the settings on
 * every check. One thread; unknown lag (NaN) changes nothing.
 */
final class FlushPolicy {
    enum Action { NONE, RELAX, STRICT }

    private final double thresholdSeconds;
    private final long strictAfterNanos;
    private boolean relaxed;
    private long calmSince = -1;

    FlushPolicy(Duration threshold, Duration strictAfter) {
        this.thresholdSeconds = threshold.toMillis() / 1000.0;
        this.strictAfterNanos = strictAfter.toNanos();
    }

    /** The RELAX it gave could not be carried out (the target was lost): the next lagging check gives it again. */
    void relaxFailed() {
        relaxed = false;
        calmSince = -1;
    }

    Action next(double lagSeconds, long nowNanos) {
        if (Double.isNaN(lagSeconds)) {
            return Action.NONE;
        }
        boolean lagging = lagSeconds >= thresholdSeconds;
        if (!relaxed) {
            if (lagging) {
                relaxed = true;
                calmSince = -1;
                return Action.RELAX;
            }
            return Action.NONE;
        }
        if (lagging) {
            calmSince = -1;
            return Action.NONE;
        }
        if (calmSince < 0) {
            calmSince = nowNanos;
        }
        if (nowNanos - calmSince >= strictAfterNanos) {
            relaxed = false;
            calmSince = -1;
            return Action.STRICT;
        }
        return Action.NONE;
    }
}
