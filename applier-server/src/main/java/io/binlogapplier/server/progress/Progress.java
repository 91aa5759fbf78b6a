package io.binlogapplier.server.progress;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * The progress line's arithmetic, pure: from two samples of the applier taken some seconds apart,
 * the applied rate, and an ETA to catch up from how fast the bytes behind (else the lag) shrink.
 * The ETA assumes the source keeps writing as it did between the samples; a backlog that does not
 * shrink has no ETA.
 */
public final class Progress {
    private Progress() {
    }

    /**
     * What the applier looked like at one moment.
     *
     * @param nanos a monotonic time (System.nanoTime)
     * @param applied transactions applied since the process started
     * @param bytesBehind bytes of source binlog after the applied position; -1 unknown
     * @param lagSeconds the lag; NaN unknown
     * @param caughtUp nothing pending and the reader at the source's end
     */
    public record Sample(long nanos, long applied, long bytesBehind, double lagSeconds, boolean caughtUp) {
    }

    /**
     * Seconds until {@code now} reaches 0 at the speed it fell from {@code before} over
     * {@code seconds}; empty when it did not fall (or {@code seconds} is not positive).
     */
    public static OptionalLong etaSeconds(double before, double now, double seconds) {
        if (!(seconds > 0) || Double.isNaN(before) || Double.isNaN(now) || before < 0 || now < 0) {
            return OptionalLong.empty();
        }
        if (now == 0) {
            return OptionalLong.of(0);
        }
        double speed = (before - now) / seconds;
        if (!(speed > 0)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of((long) Math.ceil(now / speed));
    }

    /** The ETA from the bytes behind where both samples know them, else from the lag. */
    public static OptionalLong eta(Sample before, Sample now) {
        double seconds = (now.nanos() - before.nanos()) / 1e9;
        if (bytesKnown(before, now)) {
            return etaSeconds(before.bytesBehind(), now.bytesBehind(), seconds);
        }
        return etaSeconds(before.lagSeconds(), now.lagSeconds(), seconds);
    }

    private static boolean bytesKnown(Sample before, Sample now) {
        return before.bytesBehind() >= 0 && now.bytesBehind() >= 0;
    }

    /**
     * Whether the two samples say how the backlog moved: both know the bytes behind, or both the
     * lag. Not so at the first line after a start, whose first sample came before the applier knew
     * where it stood.
     */
    static boolean comparable(Sample before, Sample now) {
        return bytesKnown(before, now) || (!Double.isNaN(before.lagSeconds()) && !Double.isNaN(now.lagSeconds()));
    }

    /** The line to log for the interval from {@code before} to {@code now}; null when caught up (nothing to say). */
    public static String line(Sample before, Sample now) {
        if (now.caughtUp()) {
            return null;
        }
        double seconds = Math.max(1e-9, (now.nanos() - before.nanos()) / 1e9);
        long applied = now.applied() - before.applied();
        StringBuilder b = new StringBuilder("progress: applied ")
            .append(String.format(Locale.ROOT, "%.0f", applied / seconds)).append(" transactions/s (")
            .append(applied).append(" in ").append(String.format(Locale.ROOT, "%.0f", seconds)).append(" s), lag ")
            .append(Double.isNaN(now.lagSeconds()) ? "unknown" : String.format(Locale.ROOT, "%.1f s", now.lagSeconds()))
            .append(", ").append(now.bytesBehind() < 0 ? "unknown bytes" : bytes(now.bytesBehind())).append(" behind, ");
        OptionalLong eta = eta(before, now);
        if (eta.isPresent()) {
            b.append("caught up in about ").append(duration(eta.getAsLong()));
        } else if (comparable(before, now)) {
            b.append("not catching up (the backlog did not shrink)");
        } else {
            b.append("no estimate yet (the backlog is known from this line on)");
        }
        return b.toString();
    }

    /** 1536 → "1.5 KiB". */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " bytes";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    /** 3725 → "1h 2m 5s". */
    static String duration(long seconds) {
        long h = seconds / 3600;
        long m = seconds % 3600 / 60;
        long s = seconds % 60;
        if (h > 0) {
            return h + "h " + m + "m " + s + "s";
        }
        return m > 0 ? m + "m " + s + "s" : s + "s";
    }
}
