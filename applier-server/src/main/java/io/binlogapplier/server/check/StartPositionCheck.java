package io.binlogapplier.server.check;

import io.binlogapplier.ApplierException;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.StartPosition;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.MariadbGtidPosition;
import io.binlogapplier.position.SourceGtid;
import io.binlogapplier.position.SourceIdentity;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Is the position a run would start from still on the source? That is the target's saved position
 * when there is one (it takes precedence), else {@code source.start}.
 */
final class StartPositionCheck {
    static final String NAME = "start position";

    private final SourceInspector source;

    StartPositionCheck(SourceInspector source) {
        this.source = source;
    }

    /**
     * @param saved the target's state row, or null when there is none (or it could not be read)
     * @param savedUnknown why the saved position is unknown (target unreadable), or null
     * @param savedServerId the server_id of the source the saved file position is of, or null when unknown
     * @param address the source's host:port, for the message
     */
    CheckResult check(StartPosition start, StateStore.Saved saved, String savedUnknown, Long savedServerId,
                      String address) {
        if (saved != null) {
            SourcePosition p = saved.position();
            String what = "saved position " + p.coordinates() + (p.gtids().isEmpty() ? "" : " gtid " + p.gtids())
                + " (the target's; it takes precedence over source.start)";
            if (saved.pending() != null) {
                what += ", with a pending transaction at " + saved.pending().coordinates() + " to replay";
            }
            if (p.resumeBy() == SourcePosition.ResumeBy.FILE) {
                try {
                    SourceIdentity.requireSame(savedServerId, source.variable("server_id"), address, p);
                } catch (ApplierException e) {
                    return CheckResult.fail(NAME, e.getMessage());
                }
            }
            return p.resumeBy() == SourcePosition.ResumeBy.GTID ? gtidOnSource(what, p.gtids())
                : fileOnSource(what, p.coordinates());
        }
        String note = savedUnknown == null ? "no saved position: " : "the target's saved position is unknown ("
            + savedUnknown + "); ";
        if (start instanceof StartPosition.Current) {
            BinlogCoordinates end = source.currentPosition();
            CheckResult r = CheckResult.pass(NAME, note + "source.start current: the first run starts at the source's"
                + " binlog end, now " + end);
            return savedUnknown == null ? r : CheckResult.warn(NAME, r.detail());
        }
        String what = note + "source.start " + start;
        CheckResult r = start instanceof StartPosition.File f ? fileOnSource(what, f.coordinates())
            : gtidOnSource(what, ((StartPosition.Gtid) start).gtids());
        return savedUnknown != null && r.verdict() == CheckResult.Verdict.PASS ? CheckResult.warn(NAME, r.detail()) : r;
    }

    private CheckResult fileOnSource(String what, BinlogCoordinates at) {
        List<String[]> logs;
        try {
            source.requireFile(at);
            logs = source.rows("SHOW BINARY LOGS");
        } catch (ApplierException e) {
            return CheckResult.fail(NAME, what + ": " + e.getMessage());
        } catch (SQLException e) {
            return CheckResult.warn(NAME, what + ": cannot list the source's binlogs (" + Messages.firstLine(e)
                + ")");
        }
        for (String[] log : logs) {
            if (log[0].equals(at.file()) && log.length > 1 && log[1] != null && at.offset() > Long.parseLong(log[1])) {
                return CheckResult.fail(NAME, what + ": offset " + at.offset() + " is past the end of " + at.file()
                    + " (" + log[1] + " bytes): give a position the source has written");
            }
        }
        return CheckResult.pass(NAME, what + ": on the source (it has " + range(logs) + ")");
    }

    private CheckResult gtidOnSource(String what, String gtids) {
        boolean mariadbGtid = MariadbGtidPosition.looksLikeMariadb(gtids);
        if (mariadbGtid != source.mariadb()) {
            return CheckResult.fail(NAME, what + ": a " + (mariadbGtid ? "MariaDB" : "MySQL") + " GTID position, but"
                + " the source is " + (source.mariadb() ? "MariaDB" : "MySQL") + ": give a position of the source's kind");
        }
        try {
            return source.mariadb() ? mariadbGtidOnSource(what, MariadbGtidPosition.parse(gtids))
                : mysqlGtidOnSource(what, gtids);
        } catch (SQLException e) {
            return CheckResult.warn(NAME, what + ": could not compare it with the source's binlogs ("
                + Messages.firstLine(e) + ")");
        }
    }

    /**
     * The source can send from {@code wanted} when, in every domain, it is not ahead of the source's
     * newest GTID and not before the position its oldest binlog file starts at (older ones were purged).
     */
    private CheckResult mariadbGtidOnSource(String what, MariadbGtidPosition wanted) throws SQLException {
        List<String[]> logs = source.rows("SHOW BINARY LOGS");
        if (logs.isEmpty()) {
            return CheckResult.fail(NAME, what + ": the source has no binlog files");
        }
        MariadbGtidPosition oldest = MariadbGtidPosition.parse(
            nonNull(source.gtidPositionAt(new BinlogCoordinates(logs.get(0)[0], 4))));
        MariadbGtidPosition newest = MariadbGtidPosition.parse(nonNull(source.variable("gtid_binlog_pos")));
        for (SourceGtid.Mariadb w : wanted.byDomain().values()) {
            SourceGtid.Mariadb now = newest.byDomain().get(w.domainId());
            if (now == null || Long.compareUnsigned(w.sequence(), now.sequence()) > 0) {
                return CheckResult.fail(NAME, what + ": " + w + " is ahead of the source, whose binlog is at "
                    + (newest.isEmpty() ? "(nothing)" : newest) + ": was the target seeded from another server?");
            }
        }
        for (Map.Entry<Long, SourceGtid.Mariadb> o : oldest.byDomain().entrySet()) {
            SourceGtid.Mariadb w = wanted.byDomain().get(o.getKey());
            if (w == null || Long.compareUnsigned(w.sequence(), o.getValue().sequence()) < 0) {
                return CheckResult.fail(NAME, what + ": the source's oldest binlog " + logs.get(0)[0] + " starts after "
                    + o.getValue() + ", so the transactions after " + (w == null ? "the start of domain " + o.getKey()
                    : w) + " were purged; re-seed the target from a fresh copy of the source and set source.start"
                    + " to that copy's position");
            }
        }
        return CheckResult.pass(NAME, what + ": on the source (its binlogs hold "
            + (oldest.isEmpty() ? "the start" : oldest.toString()) + " … " + newest + ")");
    }

    private CheckResult mysqlGtidOnSource(String what, String wanted) throws SQLException {
        String[] r = source.rows("SELECT GTID_SUBTRACT(@@GLOBAL.gtid_purged, ?), GTID_SUBTRACT(?, @@GLOBAL.gtid_executed)",
            wanted, wanted).get(0);
        String purged = r[0] == null ? "" : r[0].replace("\n", "");
        String ahead = r[1] == null ? "" : r[1].replace("\n", "");
        if (!purged.isEmpty()) {
            return CheckResult.fail(NAME, what + ": the source purged " + SourceChecks.abbreviate(purged)
                + ", which the target lacks; re-seed the target from a fresh copy of the source and set source.start"
                + " to that copy's position");
        }
        if (!ahead.isEmpty()) {
            return CheckResult.fail(NAME, what + ": " + SourceChecks.abbreviate(ahead) + " is not in the source's"
                + " gtid_executed: was the target seeded from another server?");
        }
        return CheckResult.pass(NAME, what + ": on the source (gtid_purged is part of it)");
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    private static String range(List<String[]> logs) {
        if (logs.isEmpty()) {
            return "no binlog files";
        }
        return logs.size() == 1 ? logs.get(0)[0] : logs.get(0)[0] + " … " + logs.get(logs.size() - 1)[0];
    }
}
