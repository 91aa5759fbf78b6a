package io.binlogapplier.config;

/**
 * The {@code apply.read_ahead:} section: reading the index entries that queued row changes will
 * touch into the target's buffer pool before a worker changes them.
 *
 * @param enabled read ahead at all
 * @param connections target connections reading ahead, each one read at a time
 * @param rows the most row changes read ahead of the oldest one a worker is applying (further ahead,
 *     pages read now may be evicted before they are used); at start it is also held to an eighth of
 *     the target's buffer pool pages
 */
public record ReadAheadConfig(boolean enabled, int connections, int rows) {
    public static final ReadAheadConfig OFF = new ReadAheadConfig(false, 2, 1000);
}
