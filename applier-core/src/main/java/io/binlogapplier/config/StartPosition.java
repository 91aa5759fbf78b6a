package io.binlogapplier.config;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.MariadbGtidPosition;
import io.binlogapplier.position.MysqlGtidSet;

/** Where to start reading when the target has no saved position: {@code source.start}. */
public sealed interface StartPosition {

    /** The source's current end of binlog (SHOW MASTER STATUS) at the first start. */
    record Current() implements StartPosition {
        @Override
        public String toString() {
            return "current";
        }
    }

    record File(BinlogCoordinates coordinates) implements StartPosition {
        @Override
        public String toString() {
            return coordinates.toString();
        }
    }

    /** A MariaDB GTID position ({@code 0-1-100,1-2-5}) or MySQL GTID set ({@code uuid:1-100}). */
    record Gtid(String gtids) implements StartPosition {
        @Override
        public String toString() {
            return gtids;
        }
    }

    /** Parses {@code current}, {@code file:offset} or a GTID position; null when it is none of these. */
    static StartPosition parseOrNull(String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("current")) {
            return new Current();
        }
        if (MariadbGtidPosition.looksLikeMariadb(t)) {
            return new Gtid(MariadbGtidPosition.parse(t).toString());
        }
        if (MysqlGtidSet.looksLikeMysql(t)) {
            try {
                return new Gtid(MysqlGtidSet.parse(t).toString());
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        BinlogCoordinates c = BinlogCoordinates.parseOrNull(t);
        return c == null ? null : new File(c);
    }
}
