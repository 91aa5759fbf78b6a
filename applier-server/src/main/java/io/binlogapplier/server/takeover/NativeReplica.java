package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.SourceConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** The target as a native replica: what it says of itself, and whether its source is ours. */
final class NativeReplica {
    private NativeReplica() {
    }

    /** The target server is MariaDB (else MySQL). */
    static boolean mariadb(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            return rs.getString(1).toLowerCase(java.util.Locale.ROOT).contains("mariadb");
        }
    }

    /** MySQL 8.0.22+ knows SHOW REPLICA STATUS (and 8.0.23+ CHANGE REPLICATION SOURCE). */
    static boolean mysqlReplicaSyntax(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeQuery("SHOW REPLICA STATUS").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** The default replication connection's status; empty when the target is no replica. */
    static Optional<ReplicaStatus> status(Connection c, boolean mariadb) throws SQLException {
        String sql = !mariadb && mysqlReplicaSyntax(c) ? "SHOW REPLICA STATUS" : "SHOW SLAVE STATUS";
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                return Optional.empty();
            }
            ResultSetMetaData md = rs.getMetaData();
            Map<String, String> row = new HashMap<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                row.put(md.getColumnLabel(i), rs.getString(i));
            }
            return Optional.of(ReplicaStatus.parse(row));
        } catch (SQLException e) {
            throw new ApplierException(ExitCode.TARGET_PRIVILEGE, "the target user may not run " + sql + " ("
                + e.getMessage() + "): grant it REPLICATION CLIENT (MariaDB 10.5+: SLAVE MONITOR) and, for handback"
                + " --execute, REPLICATION SLAVE ADMIN (MySQL: REPLICATION_SLAVE_ADMIN)", e);
        }
    }

    /**
     * Null when {@code r}'s source is the configured one, else why not. A source id the replica
     * learnt from its source (server_id, MySQL's UUID) decides when known; before its I/O thread
     * ever connected only host and port can.
     *
     * @param resolve host name to its addresses (DNS); a name that does not resolve maps to itself
     */
    static String notOurSource(ReplicaStatus r, SourceConfig config, long sourceServerId, String sourceUuid,
                               Function<String, List<String>> resolve) {
        if (!r.sourceUuid().isEmpty() && sourceUuid != null && !sourceUuid.isEmpty()) {
            return r.sourceUuid().equalsIgnoreCase(sourceUuid) ? null : "it replicates from the server with UUID "
                + r.sourceUuid() + ", the configured source " + config.address() + " has UUID " + sourceUuid;
        }
        if (r.sourceServerId() != 0) {
            return r.sourceServerId() == sourceServerId ? null : "it replicates from server_id " + r.sourceServerId()
                + " (" + r.sourceHost() + ":" + r.sourcePort() + "), the configured source " + config.address()
                + " has server_id " + sourceServerId;
        }
        boolean sameHost = r.sourceHost().equalsIgnoreCase(config.host())
            || resolve.apply(r.sourceHost()).stream().anyMatch(resolve.apply(config.host())::contains);
        if (sameHost && r.sourcePort() == config.port()) {
            return null;
        }
        return "it replicates from " + r.sourceHost() + ":" + r.sourcePort() + ", not the configured source "
            + config.address();
    }

    static List<String> addresses(String host) {
        try {
            return Arrays.stream(InetAddress.getAllByName(host)).map(InetAddress::getHostAddress).toList();
        } catch (UnknownHostException e) {
            return List.of(host);
        }
    }

    /** The source's server_id and (MySQL) server_uuid. */
    static long sourceServerId(SourceInspector s) {
        String id = s.variable("server_id");
        return id == null ? 0 : Long.parseLong(id.trim());
    }

    static String sourceUuid(SourceInspector s) {
        if (s.mariadb()) {
            return "";
        }
        String u = s.variable("server_uuid");
        return u == null ? "" : u.trim();
    }

    /** Refuses a target that is no replica of the configured source; returns its status. */
    /**
     * MariaDB: the named replication connections besides the default one ({@code SHOW ALL SLAVES
     * STATUS}), quoted; empty when there are none or the list cannot be read.
     */
    static List<String> otherConnections(Connection c) {
        List<String> out = new java.util.ArrayList<>();
        try (java.sql.Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SHOW ALL SLAVES STATUS")) {
            while (rs.next()) {
                String name = rs.getString("Connection_name");
                if (name != null && !name.isEmpty()) {
                    out.add("'" + name + "'");
                }
            }
        } catch (SQLException e) {
            return List.of(); // not readable: nothing known
        }
        return out;
    }

    static ReplicaStatus requireReplicaOf(Connection c, boolean mariadb, SourceInspector source, SourceConfig config,
                                          String command) throws SQLException {
        ReplicaStatus r = status(c, mariadb).orElseThrow(() -> new ApplierException(ExitCode.REPLICA_MISMATCH,
            command + ": the target is no native replica (" + (mariadb ? "SHOW SLAVE STATUS" : "SHOW REPLICA STATUS")
            + " is empty for the default connection): point it at the source with CHANGE MASTER TO first"));
        String why = notOurSource(r, config, sourceServerId(source), sourceUuid(source), NativeReplica::addresses);
        if (why != null) {
            throw new ApplierException(ExitCode.REPLICA_MISMATCH, command + " refused: the target is not a native"
                + " replica of the configured source: " + why + "; fix source.host/port in the configuration or"
                + " the replica's CHANGE MASTER TO");
        }
        if (r.sqlRunning()) {
            throw new ApplierException(ExitCode.REPLICA_SQL_RUNNING, command + " refused: the native replica's SQL"
                + " thread runs on the target: run " + (mariadb ? "STOP SLAVE SQL_THREAD" : "STOP REPLICA SQL_THREAD")
                + " there first (the I/O thread may keep running)");
        }
        return r;
    }
}
