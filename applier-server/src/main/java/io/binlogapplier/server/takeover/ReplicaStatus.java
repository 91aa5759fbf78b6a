package io.binlogapplier.server.takeover;

import io.binlogapplier.position.BinlogCoordinates;

import java.util.Map;
import java.util.TreeMap;

/**
 * One row of a native replica's {@code SHOW SLAVE STATUS} (MariaDB; MySQL before 8.0.22) or
 * {@code SHOW REPLICA STATUS} (MySQL 8.0.22 and later, where "Master" became "Source" and
 * "Slave" became "Replica" in the column names). Pure: parsed from the row's columns.
 *
 * @param sourceHost {@code Master_Host}/{@code Source_Host}
 * @param sourceServerId {@code Master_Server_Id}/{@code Source_Server_Id}: 0 until the I/O thread connected once
 * @param sourceUuid MySQL's {@code Master_UUID}/{@code Source_UUID}; empty on MariaDB
 * @param executed {@code Relay_Master_Log_File}:{@code Exec_Master_Log_Pos} (MySQL 8:
 *                 {@code Relay_Source_Log_File}:{@code Exec_Source_Log_Pos}): the source coordinates
 *                 just past the last transaction the SQL thread executed
 * @param byGtid MariaDB {@code Using_Gtid} not {@code No}; MySQL {@code Auto_Position} 1
 * @param gtids MariaDB {@code Gtid_Slave_Pos}; MySQL {@code Executed_Gtid_Set} (newlines removed)
 * @param filters the replica's own replication filters, {@code Replicate_Wild_Ignore_Table=other.%} and
 *                so on, comma-separated; empty when it has none
 */
public record ReplicaStatus(String sourceHost, int sourcePort, long sourceServerId, String sourceUuid,
                            boolean ioRunning, boolean sqlRunning, BinlogCoordinates executed, boolean byGtid,
                            String gtidMode, String gtids, int lastSqlErrno, String lastSqlError, String filters) {

    private static final String[] FILTERS = {"Replicate_Do_DB", "Replicate_Ignore_DB", "Replicate_Do_Table",
        "Replicate_Ignore_Table", "Replicate_Wild_Do_Table", "Replicate_Wild_Ignore_Table", "Replicate_Rewrite_DB"};

    /** Parses a row given as column name to value (case-insensitive names; nulls allowed). */
    public static ReplicaStatus parse(Map<String, String> row) {
        Map<String, String> r = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        r.putAll(row);
        String host = first(r, "Master_Host", "Source_Host");
        String port = first(r, "Master_Port", "Source_Port");
        String serverId = first(r, "Master_Server_Id", "Source_Server_Id");
        String uuid = first(r, "Master_UUID", "Source_UUID");
        String io = first(r, "Slave_IO_Running", "Replica_IO_Running");
        String sql = first(r, "Slave_SQL_Running", "Replica_SQL_Running");
        String file = first(r, "Relay_Master_Log_File", "Relay_Source_Log_File");
        String pos = first(r, "Exec_Master_Log_Pos", "Exec_Source_Log_Pos");
        String usingGtid = r.get("Using_Gtid");
        String autoPosition = r.get("Auto_Position");
        boolean byGtid;
        String mode;
        if (usingGtid != null) {
            mode = usingGtid;
            byGtid = !usingGtid.equalsIgnoreCase("No");
        } else {
            mode = "Auto_Position=" + (autoPosition == null ? "0" : autoPosition);
            byGtid = "1".equals(autoPosition);
        }
        String gtids = usingGtid != null ? r.get("Gtid_Slave_Pos") : r.get("Executed_Gtid_Set");
        String errno = r.get("Last_SQL_Errno");
        return new ReplicaStatus(host == null ? "" : host, parseInt(port), parseLong(serverId),
            uuid == null ? "" : uuid, running(io), running(sql),
            new BinlogCoordinates(file == null ? "" : file, parseLong(pos)), byGtid, mode,
            gtids == null ? "" : gtids.replace("\n", "").trim(), parseInt(errno), r.getOrDefault("Last_SQL_Error", ""),
            filters(r));
    }

    private static String filters(Map<String, String> r) {
        StringBuilder sb = new StringBuilder();
        for (String f : FILTERS) {
            String v = r.get(f);
            if (v != null && !v.isBlank()) {
                sb.append(sb.length() == 0 ? "" : ", ").append(f).append('=').append(v.trim());
            }
        }
        return sb.toString();
    }

    /** "Yes" (and MySQL's "Connecting" for the I/O thread) count as running; only "No" is stopped. */
    private static boolean running(String v) {
        return v != null && !v.equalsIgnoreCase("No");
    }

    private static String first(Map<String, String> r, String a, String b) {
        String v = r.get(a);
        return v != null ? v : r.get(b);
    }

    private static int parseInt(String v) {
        return v == null || v.isBlank() ? 0 : Integer.parseInt(v.trim());
    }

    private static long parseLong(String v) {
        return v == null || v.isBlank() ? 0 : Long.parseLong(v.trim());
    }
}
