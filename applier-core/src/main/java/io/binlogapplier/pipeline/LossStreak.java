package io.binlogapplier.pipeline;

/**
 * The reconnects made in a row to one lost server (source or target), which {@code reconnect_attempts}
 * limits. "In a row" means without the applier getting anywhere in between: a pipeline that lost the
 * server again before committing a transaction, and within {@link #SETTLED_MILLIS} of its start,
 * continues the streak (a target that accepts connections and then kills every session, a source that
 * drops every stream at once); one that committed, or kept the server that long, ends it, so that
 * separate outages, days apart on an idle source, do not add up. Pure; one per side per run.
 */
final class LossStreak {
    /** A pipeline that ran this long before losing its server had the server back: the next loss starts anew. */
    static final long SETTLED_MILLIS = 60_000;

    private int attempts;

    /**
     * A pipeline ended (by losing this server, or the other side): one that got somewhere ends the streak.
     *
     * @param committed it committed at least one transaction
     * @param ranMillis how long it ran
     */
    void pipelineEnded(boolean committed, long ranMillis) {
        if (committed || ranMillis >= SETTLED_MILLIS) {
            attempts = 0;
        }
    }

    /** The number of the reconnect about to be made: 1 for the first of a streak. */
    int nextAttempt() {
        return ++attempts;
    }
}
