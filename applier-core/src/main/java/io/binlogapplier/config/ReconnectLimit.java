package io.binlogapplier.config;

/**
 * How often a lost server (source or target) is reconnected before the applier gives up and exits:
 * {@code reconnect_attempts} in either section, a count or {@code forever} (the default, as a native
 * replica retries for as long as it runs). Immutable.
 *
 * @param attempts reconnects in a row without progress allowed; -1 for {@link #FOREVER}
 */
public record ReconnectLimit(int attempts) {
    public static final ReconnectLimit FOREVER = new ReconnectLimit(-1);

    public ReconnectLimit {
        if (attempts < -1) {
            throw new IllegalArgumentException("attempts " + attempts);
        }
    }

    public boolean forever() {
        return attempts < 0;
    }

    /** True when {@code made} reconnects in a row have already been made and no more are allowed. */
    public boolean exhaustedAfter(int made) {
        return !forever() && made > attempts;
    }

    /** {@code "forever"} or the count, as written in the configuration. */
    @Override
    public String toString() {
        return forever() ? "forever" : Integer.toString(attempts);
    }

    /** Parses {@code forever} or a whole number from 0 to 1,000,000; null when it is neither. */
    static ReconnectLimit parseOrNull(String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("forever")) {
            return FOREVER;
        }
        try {
            int n = Integer.parseInt(t);
            return n < 0 || n > 1_000_000 ? null : new ReconnectLimit(n);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
