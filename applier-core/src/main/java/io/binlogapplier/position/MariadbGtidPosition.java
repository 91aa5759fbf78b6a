package io.binlogapplier.position;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A MariaDB replication position: the last GTID seen in each replication domain, written
 * {@code 0-1-100,1-2-5} (the format of {@code gtid_slave_pos} and {@code @slave_connect_state}).
 * Immutable.
 */
public final class MariadbGtidPosition {
    private static final Pattern FORMAT = Pattern.compile("^\\s*\\d+-\\d+-\\d+(\\s*,\\s*\\d+-\\d+-\\d+)*\\s*$");
    public static final MariadbGtidPosition EMPTY = new MariadbGtidPosition(new TreeMap<>());

    private final TreeMap<Long, SourceGtid.Mariadb> byDomain;

    private MariadbGtidPosition(TreeMap<Long, SourceGtid.Mariadb> byDomain) {
        this.byDomain = byDomain;
    }

    public static boolean looksLikeMariadb(String text) {
        return FORMAT.matcher(text).matches();
    }

    public static MariadbGtidPosition parse(String text) {
        String trimmed = text.trim();
        if (trimmed.isEmpty()) {
            return EMPTY;
        }
        if (!looksLikeMariadb(trimmed)) {
            throw new IllegalArgumentException("not a MariaDB GTID position: '" + text + "' (expected e.g. 0-1-100,1-2-5)");
        }
        TreeMap<Long, SourceGtid.Mariadb> map = new TreeMap<>();
        for (String part : trimmed.split(",")) {
            String[] f = part.trim().split("-");
            SourceGtid.Mariadb g = new SourceGtid.Mariadb(
                Long.parseUnsignedLong(f[0]), Long.parseUnsignedLong(f[1]), Long.parseUnsignedLong(f[2]));
            if (map.put(g.domainId(), g) != null) {
                throw new IllegalArgumentException("GTID position names domain " + g.domainId() + " twice: '" + text + "'");
            }
        }
        return new MariadbGtidPosition(map);
    }

    /** This position with {@code gtid} as the newest of its domain. */
    public MariadbGtidPosition with(SourceGtid.Mariadb gtid) {
        TreeMap<Long, SourceGtid.Mariadb> copy = new TreeMap<>(byDomain);
        copy.put(gtid.domainId(), gtid);
        return new MariadbGtidPosition(copy);
    }

    public Map<Long, SourceGtid.Mariadb> byDomain() {
        return Collections.unmodifiableMap(byDomain);
    }

    public boolean isEmpty() {
        return byDomain.isEmpty();
    }

    /** True when {@code gtid} is at or before this position in its domain. */
    public boolean contains(SourceGtid.Mariadb gtid) {
        SourceGtid.Mariadb mine = byDomain.get(gtid.domainId());
        return mine != null && Long.compareUnsigned(gtid.sequence(), mine.sequence()) <= 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MariadbGtidPosition other && byDomain.equals(other.byDomain);
    }

    @Override
    public int hashCode() {
        return byDomain.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (SourceGtid.Mariadb g : byDomain.values()) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(g);
        }
        return sb.toString();
    }
}
