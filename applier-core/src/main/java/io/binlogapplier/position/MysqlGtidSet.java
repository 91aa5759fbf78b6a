package io.binlogapplier.position;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A MySQL GTID set such as {@code 3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7,…}; MySQL 8.4 tags
 * ({@code uuid:tag:1-5}) are kept apart from the untagged intervals of the same uuid. Mutable:
 * owned by one thread (the unit former), snapshotted with {@link #toString()}.
 */
public final class MysqlGtidSet {
    private static final Pattern UUID_PREFIX =
        Pattern.compile("^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*(:.*)?$", Pattern.DOTALL);

    /** key: "uuid" or "uuid:tag"; value: sorted, disjoint, non-adjacent closed intervals. */
    private final TreeMap<String, List<long[]>> sets = new TreeMap<>();

    public static boolean looksLikeMysql(String text) {
        String first = text.trim().split(",", 2)[0];
        return UUID_PREFIX.matcher(first).matches();
    }

    public static MysqlGtidSet parse(String text) {
        MysqlGtidSet set = new MysqlGtidSet();
        String trimmed = text.replace("\n", "").trim();
        if (trimmed.isEmpty()) {
            return set;
        }
        for (String member : trimmed.split(",")) {
            String[] parts = member.trim().split(":");
            if (parts.length < 2) {
                throw new IllegalArgumentException("not a MySQL GTID set member: '" + member + "' (expected uuid:1-100)");
            }
            String uuid = UUID.fromString(parts[0].trim()).toString();
            String tag = "";
            for (int i = 1; i < parts.length; i++) {
                String p = parts[i].trim();
                if (!p.isEmpty() && Character.isLetter(p.charAt(0)) || p.startsWith("_")) {
                    tag = p.toLowerCase();
                    // MySQL 8.3+: a letter or _, then letters, digits or _, 32 characters at most.
                    if (tag.length() > 32 || !tag.matches("[a-z_][a-z0-9_]*")) {
                        throw new IllegalArgumentException("bad GTID tag '" + p + "' in '" + member
                            + "' (a letter or _, then letters, digits or _, at most 32 characters)");
                    }
                    continue;
                }
                String[] range = p.split("-");
                long lo = Long.parseLong(range[0]);
                long hi = range.length > 1 ? Long.parseLong(range[1]) : lo;
                if (lo < 1 || hi < lo || range.length > 2) {
                    throw new IllegalArgumentException("bad GTID interval '" + p + "' in '" + member + "'");
                }
                set.addInterval(key(uuid, tag), lo, hi);
            }
        }
        return set;
    }

    private static String key(String uuid, String tag) {
        return tag.isEmpty() ? uuid : uuid + ":" + tag;
    }

    public void add(SourceGtid.Mysql gtid) {
        addInterval(key(gtid.sourceId().toString(), gtid.tag()), gtid.transactionId(), gtid.transactionId());
    }

    public boolean contains(SourceGtid.Mysql gtid) {
        List<long[]> intervals = sets.get(key(gtid.sourceId().toString(), gtid.tag()));
        if (intervals == null) {
            return false;
        }
        for (long[] iv : intervals) {
            if (gtid.transactionId() >= iv[0] && gtid.transactionId() <= iv[1]) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return sets.isEmpty();
    }

    /** Each "uuid" or "uuid:tag" with its sorted, disjoint closed intervals {lo, hi}; a copy. */
    public Map<String, List<long[]>> intervals() {
        TreeMap<String, List<long[]>> copy = new TreeMap<>();
        for (Map.Entry<String, List<long[]>> e : sets.entrySet()) {
            List<long[]> ivs = new ArrayList<>();
            for (long[] iv : e.getValue()) {
                ivs.add(iv.clone());
            }
            copy.put(e.getKey(), ivs);
        }
        return copy;
    }

    private void addInterval(String key, long lo, long hi) {
        List<long[]> intervals = sets.computeIfAbsent(key, k -> new ArrayList<>());
        // Fast path: appending the next number to the last interval (the common case when replicating).
        if (!intervals.isEmpty()) {
            long[] last = intervals.get(intervals.size() - 1);
            if (lo >= last[0] && lo <= last[1] + 1 && hi >= last[1]) {
                last[1] = hi;
                return;
            }
        }
        List<long[]> merged = new ArrayList<>(intervals.size() + 1);
        long[] add = {lo, hi};
        boolean placed = false;
        for (long[] iv : intervals) {
            if (iv[1] + 1 < add[0]) {
                merged.add(iv);
            } else if (add[1] + 1 < iv[0]) {
                if (!placed) {
                    merged.add(add);
                    placed = true;
                }
                merged.add(iv);
            } else {
                add = new long[] {Math.min(add[0], iv[0]), Math.max(add[1], iv[1])};
            }
        }
        if (!placed) {
            merged.add(add);
        }
        intervals.clear();
        intervals.addAll(merged);
    }

    @Override
    public String toString() {
        // MySQL prints all tags of one uuid after the uuid: uuid:1-5:tag:1-3. We print each key as its own member,
        // which MySQL also accepts.
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, List<long[]>> e : sets.entrySet()) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(e.getKey());
            for (long[] iv : e.getValue()) {
                sb.append(':').append(iv[0]);
                if (iv[1] != iv[0]) {
                    sb.append('-').append(iv[1]);
                }
            }
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MysqlGtidSet other && toString().equals(other.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
