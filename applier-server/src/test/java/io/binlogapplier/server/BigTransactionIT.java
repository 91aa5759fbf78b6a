package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default configuration never runs out of memory, whatever the heap: with {@code -Xmx256m} and
 * no {@code ring_bytes} key, one source transaction of 300,000 rows of 1 KB (about 307 MB of row
 * events, more than the whole heap) and one of 1,000,000 small rows are applied by both methods.
 * A worker that kept every part, a reader that buffered the whole transaction, or a ring byte
 * budget the heap cannot hold (the old 256 MB default) fails here with an OutOfMemoryError; a
 * budget that is never given back wedges the reader and the run times out.
 */
class BigTransactionIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final String DB = "big";
    private static final int WIDE_ROWS = 300_000;
    private static final int ROW_BYTES = 1_000;
    private static final int NARROW_ROWS = 1_000_000;
    private static final String[] TABLES = {DB + ".wide", DB + ".narrow", DB + ".after_it"};

    @Test
    void theDefaultConfigAppliesTransactionsLargerThanTheHeapWithEitherMethod() throws SQLException {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + DB,
            "CREATE TABLE " + DB + ".wide (id INT PRIMARY KEY, pad VARCHAR(1000) NOT NULL, k INT) ENGINE=InnoDB",
            "CREATE TABLE " + DB + ".narrow (id INT PRIMARY KEY, k INT NOT NULL) ENGINE=InnoDB",
            "CREATE TABLE " + DB + ".after_it (id INT PRIMARY KEY)",
            "INSERT INTO " + DB + ".wide SELECT seq, REPEAT(CHAR(65 + seq % 26), " + ROW_BYTES + "), seq FROM " + DB
                + ".seq_1_to_" + WIDE_ROWS,
            "INSERT INTO " + DB + ".narrow SELECT seq, seq % 1000 FROM " + DB + ".seq_1_to_" + NARROW_ROWS,
            "INSERT INTO " + DB + ".after_it VALUES (1)");
        String endOfSource = TestApplier.currentPosition(SERVERS.source());

        for (String method : new String[] {"sql", "binlog"}) {
            SERVERS.target().execute("DROP DATABASE IF EXISTS " + DB, "DROP DATABASE IF EXISTS binlog_applier");
            String yaml = TestApplier.yaml(SERVERS.servers(), DB, start, "optimistic", 4, "  method: " + method + "\n");
            assertThat(yaml).doesNotContain("ring_bytes");

            CliRun.Result r;
            try (CliRun run = CliRun.startWithHeap("256m", "run", "--config", Configs.write(yaml).toString(),
                "--until", "current")) {
                r = run.await(600);
            }

            assertThat(r.exitCode()).as(method + "\n" + r.output()).isZero();
            assertThat(r.output()).doesNotContain("OutOfMemoryError");
            // CHECKSUM TABLE and a digest of every row, computed by the servers (the harness's ordered
            // dump would hold 300 MB twice in this JVM)
            for (String table : TABLES) {
                assertThat(digest(SERVERS.target(), table)).as(method + " " + table)
                    .isEqualTo(digest(SERVERS.source(), table));
            }
            assertThat(SERVERS.target().queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
                + " binlog_applier.applier_position WHERE stream = '" + DB + "'")).as(method).isEqualTo(endOfSource);
        }
    }

    private static String digest(MariaDb server, String table) throws SQLException {
        String columns = table.endsWith(".wide") ? "id, MD5(pad), k" : table.endsWith(".narrow") ? "id, k" : "id";
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
