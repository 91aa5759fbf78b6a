package io.binlogapplier.apply;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's kind and release as {@code SELECT VERSION()} gives them, e.g.
 * {@code 10.11.19-MariaDB-0+deb12u1-log}, {@code 8.0.36}, {@code 8.4.3-commercial}. (The
 * {@code 5.5.5-} prefix MariaDB puts before its version in the protocol handshake is not in
 * {@code VERSION()}, but is stripped here too.) Immutable; pure.
 *
 * @param mariadb MariaDB (true) or MySQL (false)
 * @param major the first number of the version, e.g. 10
 * @param minor the second, e.g. 11
 * @param text the version string as the server gave it
 */
public record ServerVersion(boolean mariadb, int major, int minor, String text) {
    private static final Pattern RELEASE = Pattern.compile("^(?:5\\.5\\.5-)?(\\d+)\\.(\\d+)");

    /** Null when {@code version} is null or does not start with major.minor. */
    public static ServerVersion parseOrNull(String version) {
        if (version == null) {
            return null;
        }
        Matcher m = RELEASE.matcher(version.trim());
        if (!m.find()) {
            return null;
        }
        boolean mariadb = version.toLowerCase(Locale.ROOT).contains("mariadb");
        return new ServerVersion(mariadb, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), version);
    }

    public boolean atLeast(int major, int minor) {
        return this.major > major || this.major == major && this.minor >= minor;
    }

    /** Older in major.minor (patch releases of one series write the same row events). */
    public boolean olderThan(ServerVersion other) {
        return !atLeast(other.major, other.minor);
    }

    public String kind() {
        return mariadb ? "MariaDB" : "MySQL";
    }

    /** "MariaDB 10.11". */
    @Override
    public String toString() {
        return kind() + " " + major + "." + minor;
    }
}
