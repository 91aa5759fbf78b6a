package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * {@code adopt}: takes over from the target's native replication. Reads where its SQL thread
 * stopped and writes that as the applier's saved position: MariaDB {@code gtid_slave_pos} when
 * the replica uses GTIDs, else {@code Relay_Master_Log_File}:{@code Exec_Master_Log_Pos} (with the
 * source's GTID position there, {@code BINLOG_GTID_POS}); MySQL {@code Executed_Gtid_Set} with
 * {@code Auto_Position=1}, else the same coordinates. Refuses a target whose SQL thread runs or
 * whose source is not the configured one.
 */
public final class Adopt {
    private Adopt() {
    }

    public static String run(ApplierConfig config) {
        try (StoppedApplier t = StoppedApplier.take(config, "adopt");
             SourceInspector source = SourceInspector.connect(config.source())) {
            Connection c = t.connection();
            boolean mariadb = NativeReplica.mariadb(c);
            ReplicaStatus r = NativeReplica.requireReplicaOf(c, mariadb, source, config.source(), "adopt");
            if (r.executed().file().isEmpty()) {
                throw new ApplierException(ExitCode.REPLICA_MISMATCH, "adopt refused: the native replica has no"
                    + " executed position (Relay_Master_Log_File is empty): let it replicate once, or use set-position");
            }
            SourcePosition p;
            if (r.byGtid()) {
                String gtids = mariadb ? variable(c, "gtid_slave_pos") : r.gtids();
                p = new SourcePosition(r.executed(), gtids, SourcePosition.ResumeBy.GTID);
            } else {
                source.requireFile(r.executed());
                p = new SourcePosition(r.executed(), source.gtidPositionAt(r.executed()), SourcePosition.ResumeBy.FILE);
            }
            Optional<StateStore.Saved> before = t.state().load(c);
            t.state().replace(c, p);
            t.runs().clearError(c, null);
            String stop = mariadb ? "STOP SLAVE" : "STOP REPLICA";
            return "applier '" + config.name() + "' adopted the native replica's position " + p.coordinates()
                + (p.gtids().isEmpty() ? "" : " gtid " + p.gtids()) + " (resume by "
                + p.resumeBy().name().toLowerCase() + "; replica "
                + (mariadb ? "Using_Gtid=" : "") + r.gtidMode() + ", source " + r.sourceHost() + ":" + r.sourcePort()
                + ")" + before.map(s -> "; the saved position was " + s.position()).orElse("")
                + (r.lastSqlErrno() != 0 ? System.lineSeparator() + "note: the replica's SQL thread had stopped on"
                + " error " + r.lastSqlErrno() + " (" + r.lastSqlError() + "); the applier will meet the same"
                + " transaction first" : "")
                + (r.filters().isEmpty() ? "" : System.lineSeparator() + "warning: the native replica filters what it"
                + " applies (" + r.filters() + "), and binlog-applier does not read those settings: give it the same"
                + " rules as filter.include / filter.exclude in its configuration before it starts, or it applies"
                + " those tables too")
                + System.lineSeparator() + "next: keep the native SQL thread stopped (" + stop + " stops the I/O thread"
                + " too; set skip_slave_start=1 so a server restart does not start it), then start the applier:"
                + " systemctl start binlog-applier@" + config.name();
        } catch (SQLException e) {
            throw StoppedApplier.targetFailure(e);
        }
    }

    static String variable(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@GLOBAL." + name)) {
            return rs.next() && rs.getString(1) != null ? rs.getString(1).replace("\n", "").trim() : "";
        }
    }
}
