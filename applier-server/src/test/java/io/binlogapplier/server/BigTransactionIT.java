package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ring is bounded by bytes: one source transaction three times larger than the applier's whole heap
 * travels the ring in parts and is applied without the heap ever holding it. A worker that kept every
 * part, or a reader that buffered the whole transaction, fails here with an OutOfMemoryError; a byte
 * budget that is never given back wedges the reader and the run times out.
 */
class BigTransactionIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final int ROWS = 6_144;
    private static final int ROW_BYTES = 64 << 10;

    @ParameterizedTest(name = "apply.method {0}")
    @ValueSource(strings = {"sql", "binlog"})
    void aTransactionLargerThanTheHeapIsAppliedInParts(String method) throws SQLException {
        String db = "big_" + method;
        SERVERS.target().execute("DROP DATABASE IF EXISTS binlog_applier");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, pad LONGBLOB, k INT) ENGINE=InnoDB",
            "CREATE TABLE " + db + ".after_it (id INT PRIMARY KEY)",
            // one transaction of 6,144 rows of 64 KB: 384 MB of row events, three times the applier's 128 MB heap
            "INSERT INTO " + db + ".t SELECT seq, REPEAT(CHAR(65 + seq % 26), " + ROW_BYTES + "), seq FROM " + db + ".seq_1_to_"
                + ROWS,
            "INSERT INTO " + db + ".after_it VALUES (1)");
        String endOfSource = TestApplier.currentPosition(SERVERS.source());
        String yaml = TestApplier.yaml(SERVERS.servers(), db, start, "optimistic", 4,
            "  method: " + method + "\n  ring_bytes: 16MB\n");

        CliRun.Result r;
        try (CliRun run = CliRun.startWithHeap("128m", "run", "--config", Configs.write(yaml).toString(),
            "--until", "current")) {
            r = run.await(600);
        }

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).doesNotContain("OutOfMemoryError");
        // CHECKSUM TABLE and a digest of every row, computed by the servers (the harness's ordered dump
        // would hold 384 MB twice in this JVM)
        for (String table : new String[] {db + ".t", db + ".after_it"}) {
            assertThat(digest(SERVERS.target(), table)).as(table).isEqualTo(digest(SERVERS.source(), table));
        }
        assertThat(SERVERS.target().queryLong("SELECT SUM(LENGTH(pad)) FROM " + db + ".t"))
            .isEqualTo((long) ROWS * ROW_BYTES);
        assertThat(SERVERS.target().queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
            + " binlog_applier.applier_position WHERE stream = '" + db + "'")).isEqualTo(endOfSource);
    }

    private static String digest(MariaDb server, String table) throws SQLException {
        String columns = table.endsWith(".t") ? "id, MD5(pad), k" : "id";
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            StringBuilder sb = new StringBuilder();
            try (ResultSet rs = s.executeQuery("CHECKSUM TABLE " + table)) {
                rs.next();
                sb.append("checksum ").append(rs.getString(2));
            }
            s.execute("SET SESSION group_concat_max_len = 67108864");
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SHA2(GROUP_CONCAT(CONCAT_WS(':', " + columns
                + ") ORDER BY id), 256) FROM " + table)) {
                rs.next();
                sb.append(", rows ").append(rs.getLong(1)).append(", digest ").append(rs.getString(2));
            }
            return sb.toString();
        }
    }
}
