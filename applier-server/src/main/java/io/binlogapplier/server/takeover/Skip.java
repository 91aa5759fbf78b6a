package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.position.GtidTracker;
import io.binlogapplier.position.SourceIdentity;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.status.LastError;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code skip}: with the applier stopped, moves its saved position past the next source
 * transactions (like a native replica's {@code sql_slave_skip_counter}, but by whole transactions
 * and on the record): each one skipped is written to {@code skipped}, with the last error when it
 * is that transaction's, in the same target transaction as the new position.
 */
public final class Skip {
    static final long READ_TIMEOUT_MILLIS = 60_000;

    private Skip() {
    }

    /**
     * @param count how many transactions to skip (with {@code gtid}: 1)
     * @param gtid the one transaction to skip, refusing any other; null: the next {@code count}
     * @return what it did, for the operator
     */
    public static String run(ApplierConfig config, int count, String gtid) throws InterruptedException {
        if (count < 1) {
            throw new ApplierException(ExitCode.USAGE, "--count " + count + ": give 1 or more");
        }
        int n = gtid == null ? count : 1;
        try (StoppedApplier t = StoppedApplier.take(config, "skip");
             SourceInspector source = SourceInspector.connect(config.source())) {
            Connection c = t.connection();
            StateStore.Saved saved = t.requireSaved("skip");
            SourcePosition from = saved.position();
            LastError error = t.runs().lastError(c).orElse(null);
            if (from.resumeBy() == SourcePosition.ResumeBy.FILE) {
                // the transactions after a file position are another server's than its own: exit 19
                SourceIdentity.requireSame(t.state().sourceServerId(c), source.variable("server_id"),
                    config.source().address(), from);
                source.requireFile(from.coordinates());
            }
            BinlogCoordinates end = source.currentPosition();
            if (nothingAfter(source, from, end)) {
                throw nothing(config, from, 0, n);
            }
            List<NextTransactions.Found> next = NextTransactions.read(config.source(), from, n, end,
                READ_TIMEOUT_MILLIS);
            if (next.size() < n) {
                throw nothing(config, from, next.size(), n);
            }
            if (gtid != null && !next.get(0).ref().gtid().equalsIgnoreCase(gtid.trim())) {
                String hint = error != null && error.inTransaction() && error.transaction().gtid().equalsIgnoreCase(
                    gtid.trim()) ? " The failed transaction " + gtid + " starts at " + error.transaction().start()
                    + ": apply what comes before it with 'binlog-applier run --config F --until "
                    + error.transaction().start() + "', then skip it." : "";
                throw new ApplierException(ExitCode.SKIP_REFUSED, "the next transaction after " + from + " is "
                    + next.get(0).ref() + ", not " + gtid.trim() + ": skip --gtid skips only the next transaction;"
                    + " nothing was skipped." + hint);
            }
            GtidTracker gtids = new GtidTracker(from.gtids());
            List<String> lines = new ArrayList<>();
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                for (NextTransactions.Found f : next) {
                    if (f.gtid() != null) {
                        gtids.add(f.gtid());
                    }
                    t.skipped().record(c, config.name(), f.ref(), f.end(), errorOf(error, f, from));
                    lines.add("skipped transaction " + f.ref() + " (ends at " + f.end() + ")");
                }
                SourcePosition to = new SourcePosition(next.get(next.size() - 1).end(), gtids.snapshot(),
                    from.resumeBy());
                t.state().replace(c, to);
                c.commit();
                lines.add("applier '" + config.name() + "': position was " + from + "; now " + to + "; recorded in "
                    + t.skipped().qualified());
                if (error != null && error.passedBy(to) && t.runs().clearError(c, error)) {
                    c.commit();
                    lines.add("last error cleared (" + error.name() + " in " + error.transaction() + ")");
                }
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
            return String.join(System.lineSeparator(), lines);
        } catch (SQLException e) {
            throw StoppedApplier.targetFailure(e);
        }
    }

    /** The last error, when it is this transaction's (or, naming none, it stopped at this transaction's start). */
    private static LastError errorOf(LastError error, NextTransactions.Found f, SourcePosition from) {
        if (error == null) {
            return null;
        }
        if (error.inTransaction()) {
            boolean sameGtid = !error.transaction().gtid().isEmpty()
                && error.transaction().gtid().equalsIgnoreCase(f.ref().gtid());
            return sameGtid || error.transaction().start().equals(f.ref().start()) ? error : null;
        }
        return f.ref().start().equals(from.coordinates()) || error.transaction().start().equals(f.ref().start())
            ? error : null;
    }

    private static boolean nothingAfter(SourceInspector source, SourcePosition from, BinlogCoordinates end) {
        if (from.resumeBy() == SourcePosition.ResumeBy.GTID) {
            String has = source.variable(source.mariadb() ? "gtid_binlog_pos" : "gtid_executed");
            if (has == null || has.isBlank() || from.gtids().isBlank()) {
                return false;
            }
            try {
                return GtidGoal.parse(has.replace("\n", "")).reachedBy(from.gtids());
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return from.coordinates().atOrAfter(end);
    }

    private static ApplierException nothing(ApplierConfig config, SourcePosition from, int found, int asked) {
        return new ApplierException(ExitCode.NOTHING_TO_SKIP, "the source has " + (found == 0 ? "no transaction"
            : "only " + found + " transaction" + (found == 1 ? "" : "s")) + " after applier '" + config.name()
            + "''s position " + from + " (asked to skip " + asked + "): nothing was skipped; check the position with"
            + " 'binlog-applier status'");
    }
}
