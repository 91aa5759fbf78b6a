package io.binlogapplier.server.status;

import io.binlogapplier.ApplierException;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.errors.VendorCode;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.server.check.TargetConnections;
import io.binlogapplier.status.LastError;
import io.binlogapplier.status.RunTable;
import io.binlogapplier.status.StreamLock;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads what {@link StatusReport} needs from the target and the source. Reads only; creates nothing. */
public final class StatusReader {

    private StatusReader() {
    }

    /** The report and, when the source could not be read, why (the report then has no source part). */
    public record Reading(StatusReport report, ApplierException sourceFailure) {
    }

    /** @throws ApplierException when the target cannot be read (nothing to report then) */
    public static Reading read(ApplierConfig config, Clock clock) {
        String schema = config.target().stateSchema();
        String table = schema + "." + StateStore.TABLE;
        StateStore.Saved saved = null;
        Instant updatedAt = null;
        Long savedServerId = null;
        RunTable.Process process = null;
        LastError lastError = null;
        String targetTls = null;
        try (Connection c = TargetConnections.open(config.target())) {
            targetTls = io.binlogapplier.tls.SessionTls.describe(c);
            RunTable runs = new RunTable(schema, config.name());
            try {
                process = runs.process(c, new StreamLock(schema, config.name()).name()).orElse(null);
                lastError = runs.lastError(c).orElse(null);
            } catch (SQLException e) {
                if (!VendorCode.ER_NO_SUCH_TABLE.is(e) && !VendorCode.ER_BAD_DB_ERROR.is(e)) {
                    throw e;
                }
            }
            StateStore store = new StateStore(schema, config.name());
            Optional<StateStore.Saved> row = store.load(c);
            if (row.isPresent()) {
                saved = row.get();
                updatedAt = updatedAt(c, schema, config.name());
                savedServerId = store.sourceServerId(c);
            }
        } catch (SQLException e) {
            if (!VendorCode.ER_NO_SUCH_TABLE.is(e) && !VendorCode.ER_BAD_DB_ERROR.is(e)) {
                throw new ApplierException(io.binlogapplier.ExitCode.STATE_INVALID, "cannot read " + table + " on the"
                    + " target (" + e.getMessage() + "): check target.state_schema and the user's SELECT privilege", e);
            }
        }
        StatusReport.Source source = null;
        ApplierException sourceFailure = null;
        try (SourceInspector s = SourceInspector.connect(config.source())) {
            String gtids = s.variable(s.mariadb() ? "gtid_binlog_pos" : "gtid_executed");
            source = new StatusReport.Source(config.source().address(), s.currentPosition(),
                gtids == null ? "" : gtids.replace("\n", ""), logs(s), s.tls(),
                io.binlogapplier.position.SourceIdentity.parse(s.variable("server_id")));
        } catch (ApplierException e) {
            sourceFailure = e;
        }
        return new Reading(new StatusReport(config.name(), table, config.target().address(), saved, updatedAt, source,
            clock.instant(), process, lastError, targetTls, savedServerId), sourceFailure);
    }

    private static Instant updatedAt(Connection c, String schema, String name) throws SQLException {
        // UNIX_TIMESTAMP: an instant whatever the session's time zone (a TIMESTAMP read as such comes back in the
        // target's time zone, and was shown hours off labelled UTC on a target not in UTC)
        try (PreparedStatement ps = c.prepareStatement("SELECT UNIX_TIMESTAMP(updated_at) FROM `"
            + schema.replace("`", "``") + "`." + StateStore.TABLE + " WHERE stream = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                java.math.BigDecimal t = rs.next() ? rs.getBigDecimal(1) : null;
                if (t == null) {
                    return null;
                }
                java.math.BigDecimal[] parts = t.divideAndRemainder(java.math.BigDecimal.ONE);
                return Instant.ofEpochSecond(parts[0].longValueExact(),
                    parts[1].movePointRight(9).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact());
            }
        }
    }

    private static List<StatusReport.BinlogFile> logs(SourceInspector s) {
        try {
            List<StatusReport.BinlogFile> out = new ArrayList<>();
            for (String[] r : s.rows("SHOW BINARY LOGS")) {
                out.add(new StatusReport.BinlogFile(r[0], r.length > 1 && r[1] != null ? Long.parseLong(r[1]) : 0));
            }
            return out;
        } catch (SQLException e) {
            return null;
        }
    }
}
