package io.binlogapplier.position;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A GTID to apply up to ({@code run --until 0-1-100,1-2-5} or {@code --until uuid:1-100}). Pure and
 * immutable.
 *
 * <p>The goal names, per stream of GTIDs, the last transaction to apply: per MariaDB replication
 * domain its GTID's sequence number, per MySQL uuid (and tag) the highest number of the set. A
 * source numbers each such stream in increasing order, so an applied position that holds that last
 * GTID holds everything of the goal the binlog carries. This is MariaDB's own meaning of "a position
 * contains a GTID" (the domain's sequence number is at or past it). For MySQL it also means that
 * GTIDs from before the start position need not be in the applied set, which they are not when the
 * applier started from a file position.
 */
public final class GtidGoal {
    private final boolean mariadb;
    /** "domain" or "uuid[:tag]" → the last sequence number / transaction number to apply. */
    private final Map<String, Long> last;
    private final String text;

    private GtidGoal(boolean mariadb, Map<String, Long> last, String text) {
        this.mariadb = mariadb;
        this.last = Map.copyOf(last);
        this.text = text;
    }

    /** True when {@code text} has the shape of a MariaDB GTID position or a MySQL GTID set. */
    public static boolean looksLikeGtids(String text) {
        return MariadbGtidPosition.looksLikeMariadb(text) || MysqlGtidSet.looksLikeMysql(text);
    }

    /** @throws IllegalArgumentException when the text is neither kind, saying why */
    public static GtidGoal parse(String text) {
        String t = text.trim();
        Map<String, Long> last = new HashMap<>();
        if (MariadbGtidPosition.looksLikeMariadb(t)) {
            MariadbGtidPosition p = MariadbGtidPosition.parse(t);
            for (SourceGtid.Mariadb g : p.byDomain().values()) {
                last.put(Long.toUnsignedString(g.domainId()), g.sequence());
            }
            return new GtidGoal(true, last, p.toString());
        }
        if (!MysqlGtidSet.looksLikeMysql(t)) {
            throw new IllegalArgumentException("'" + text + "' is neither a MariaDB GTID position (0-1-100,1-2-5)"
                + " nor a MySQL GTID set (uuid:1-100)");
        }
        MysqlGtidSet set = MysqlGtidSet.parse(t);
        if (set.isEmpty()) {
            throw new IllegalArgumentException("'" + text + "' is an empty GTID set");
        }
        for (Map.Entry<String, List<long[]>> e : set.intervals().entrySet()) {
            List<long[]> ivs = e.getValue();
            last.put(e.getKey(), ivs.get(ivs.size() - 1)[1]);
        }
        return new GtidGoal(false, last, set.toString());
    }

    /** True for a MariaDB GTID position, false for a MySQL GTID set. */
    public boolean mariadb() {
        return mariadb;
    }

    /** True when the applied position {@code applied} (a state row's gtid_set; may be empty) holds the goal. */
    public boolean reachedBy(String applied) {
        return from(applied).reached();
    }

    /** Progress towards the goal from the applied position {@code applied}; feed it GTIDs in source order. */
    public Progress from(String applied) {
        Map<String, Long> outstanding = new HashMap<>(last);
        String a = applied == null ? "" : applied.trim();
        if (!a.isEmpty() && mariadb == MariadbGtidPosition.looksLikeMariadb(a)) {
            if (mariadb) {
                for (SourceGtid.Mariadb g : MariadbGtidPosition.parse(a).byDomain().values()) {
                    satisfy(outstanding, Long.toUnsignedString(g.domainId()), g.sequence());
                }
            } else {
                for (Map.Entry<String, List<long[]>> e : MysqlGtidSet.parse(a).intervals().entrySet()) {
                    Long need = outstanding.get(e.getKey());
                    if (need != null && covers(e.getValue(), need)) {
                        outstanding.remove(e.getKey());
                    }
                }
            }
        }
        return new Progress(outstanding);
    }

    private void satisfy(Map<String, Long> outstanding, String key, long number) {
        Long need = outstanding.get(key);
        if (need != null && Long.compareUnsigned(number, need) >= 0) {
            outstanding.remove(key);
        }
    }

    private static boolean covers(List<long[]> intervals, long n) {
        for (long[] iv : intervals) {
            if (n >= iv[0] && n <= iv[1]) {
                return true;
            }
        }
        return false;
    }

    private static String keyOf(SourceGtid gtid) {
        if (gtid instanceof SourceGtid.Mariadb m) {
            return Long.toUnsignedString(m.domainId());
        }
        SourceGtid.Mysql my = (SourceGtid.Mysql) gtid;
        UUID u = my.sourceId();
        return my.tag().isEmpty() ? u.toString() : u + ":" + my.tag();
    }

    private static long numberOf(SourceGtid gtid) {
        return gtid instanceof SourceGtid.Mariadb m ? m.sequence() : ((SourceGtid.Mysql) gtid).transactionId();
    }

    @Override
    public String toString() {
        return text;
    }

    /** What the next transaction means for the goal. */
    public enum Step {
        /** Apply it; the goal is not reached yet. */
        CONTINUE,
        /** Apply it; with it the goal is reached: stop after it. */
        REACHED,
        /**
         * Do not apply it: it is past the goal's last GTID in its domain (or uuid) while that GTID was
         * never seen, so the binlog does not have it. Stop before it.
         */
        PAST
    }

    /** Which of the goal's GTIDs are still to come. One thread; not thread-safe. */
    public final class Progress {
        private final Map<String, Long> outstanding;

        private Progress(Map<String, Long> outstanding) {
            this.outstanding = outstanding;
        }

        public boolean reached() {
            return outstanding.isEmpty();
        }

        /** Takes the next transaction's GTID, in source order, before it is applied. */
        public Step next(SourceGtid gtid) {
            if (outstanding.isEmpty()) {
                return Step.REACHED;
            }
            if ((gtid instanceof SourceGtid.Mariadb) != mariadb) {
                return Step.CONTINUE;
            }
            String key = keyOf(gtid);
            Long need = outstanding.get(key);
            if (need == null) {
                return Step.CONTINUE;
            }
            int cmp = Long.compareUnsigned(numberOf(gtid), need);
            if (cmp > 0) {
                return Step.PAST;
            }
            if (cmp == 0) {
                outstanding.remove(key);
                return outstanding.isEmpty() ? Step.REACHED : Step.CONTINUE;
            }
            return Step.CONTINUE;
        }

        /** The goal's GTIDs not applied yet, e.g. {@code 0-?-100} for MariaDB, {@code uuid:100} for MySQL. */
        public String outstanding() {
            StringBuilder sb = new StringBuilder();
            outstanding.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
                if (sb.length() > 0) {
                    sb.append(',');
                }
                sb.append(mariadb ? "domain " + e.getKey() + " sequence " + Long.toUnsignedString(e.getValue())
                    : e.getKey() + ":" + e.getValue());
            });
            return sb.toString();
        }
    }
}
