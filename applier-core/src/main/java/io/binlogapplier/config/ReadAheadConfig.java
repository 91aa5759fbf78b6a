package io.binlogapplier.config;

import java.util.Locale;

/**
 * The {@code apply.read_ahead:} section: reading the index entries that queued row changes will
 * touch into the target's buffer pool before a worker changes them.
 *
 * @param enabled on, off, or auto: on while the target reads pages from its disk
 * @param connections target connections reading ahead, each one read at a time
 * @param rows the most row changes read ahead of the oldest one a worker is applying (further ahead,
 *     pages read now may be evicted before they are used); at start it is also held to an eighth of
 *     the target's buffer pool pages
 */
public record ReadAheadConfig(Enabled enabled, int connections, int rows) {
    public static final ReadAheadConfig DEFAULT = new ReadAheadConfig(Enabled.AUTO, 2, 1000);

    /** {@code apply.read_ahead.enabled}. */
    public enum Enabled {
        /** read ahead while the target reads at least 100 pages a second from disk */
        AUTO,
        ON,
        OFF;

        /** {@code auto}, {@code true} or {@code false} ({@code on}/{@code off} too); else null. */
        public static Enabled parse(String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "auto" -> AUTO;
                case "true", "on" -> ON;
                case "false", "off" -> OFF;
                default -> null;
            };
        }
    }

    /**
     * Not turned off: {@code true}, or {@code auto}. Whether {@code auto} starts read-ahead at all depends on
     * the workers ({@link ApplyConfig#readAheadRuns()}); once started it may still wait for the target to read
     * from disk.
     */
    public boolean runs() {
        return enabled != Enabled.OFF;
    }
}
