package io.binlogapplier.position;

/**
 * Accumulates the GTIDs of transactions in source order into the text of a position. Owned by
 * one thread (the unit former); each apply unit takes a snapshot of the state after its last
 * transaction.
 */
public final class GtidTracker {
    private MariadbGtidPosition mariadb;
    private final MysqlGtidSet mysql;
    private String snapshot;

    /** Starts from the saved or configured GTID text, which may be empty. */
    public GtidTracker(String initial) {
        String text = initial == null ? "" : initial.trim();
        if (text.isEmpty()) {
            mariadb = MariadbGtidPosition.EMPTY;
            mysql = new MysqlGtidSet();
        } else if (MariadbGtidPosition.looksLikeMariadb(text)) {
            mariadb = MariadbGtidPosition.parse(text);
            mysql = new MysqlGtidSet();
        } else {
            mariadb = MariadbGtidPosition.EMPTY;
            mysql = MysqlGtidSet.parse(text);
        }
        snapshot = text.isEmpty() ? "" : render();
    }

    public void add(SourceGtid gtid) {
        if (gtid instanceof SourceGtid.Mariadb m) {
            mariadb = mariadb.with(m);
        } else if (gtid instanceof SourceGtid.Mysql my) {
            mysql.add(my);
        }
        snapshot = null;
    }

    /** True when {@code gtid} is already part of the tracked position. */
    public boolean contains(SourceGtid gtid) {
        if (gtid instanceof SourceGtid.Mariadb m) {
            return mariadb.contains(m);
        }
        return gtid instanceof SourceGtid.Mysql my && mysql.contains(my);
    }

    public String snapshot() {
        if (snapshot == null) {
            snapshot = render();
        }
        return snapshot;
    }

    private String render() {
        if (!mariadb.isEmpty()) {
            return mariadb.toString();
        }
        return mysql.toString();
    }
}
