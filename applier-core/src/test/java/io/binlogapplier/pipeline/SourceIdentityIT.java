package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.ServerPair;
import io.binlogapplier.harness.TcpProxy;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failover behind the source's address: the applier reaches the source through a {@link TcpProxy}
 * (a virtual IP), and the proxy is moved to another server, {@code server_id} 7, whose binlog has the
 * same file names and a longer history of other transactions. Resuming from the saved file position
 * there would skip source 1's newest row and apply server 7's rows: before the source's identity was
 * kept with the position, that is what happened, with exit 0. Now a start, or a reconnect, by file
 * position to it stops with {@link ExitCode#SOURCE_CHANGED}, nothing applied and the position where it was.
 */
@SuppressWarnings("try") // BackgroundApplier.close() joins its thread
class SourceIdentityIT {
    private static final String DB = "sid";
    /** The state table as versions before the server_id column made it. */
    private static final String OLD_STATE_TABLE = "CREATE TABLE binlog_applier.applier_position ("
        + " stream VARCHAR(64) NOT NULL PRIMARY KEY, binlog_file VARCHAR(512) NOT NULL,"
        + " binlog_offset BIGINT UNSIGNED NOT NULL, gtid_set MEDIUMTEXT NOT NULL, resume_by VARCHAR(8) NOT NULL,"
        + " source_commit_us BIGINT NOT NULL DEFAULT 0, applied_transactions BIGINT UNSIGNED NOT NULL DEFAULT 0,"
        + " pending_file VARCHAR(512) NULL, pending_offset BIGINT UNSIGNED NULL, pending_gtid_set MEDIUMTEXT NULL,"
        + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6))"
        + " ENGINE=InnoDB";

    @Test
    void aStartByFilePositionAtAnotherServerStopsWith19AndAppliesNothing() throws Exception {
        try (ServerPair pair = ServerPair.start(List.of(), List.of());
             MariaDb other = otherSource();
             TcpProxy address = TcpProxy.to(pair.source.port())) {
            String start = TestApplier.currentPosition(pair.source);
            histories(pair.source, other);
            // A state table as versions before the server_id column made it: the first run adds the column.
            pair.target.execute("CREATE DATABASE binlog_applier", OLD_STATE_TABLE);
            ApplierConfig config = config(pair, address, start, true);
            TestApplier.runUntilCurrent(config);
            assertThat(rows(pair.target)).isEqualTo("1:a1,2:a2");
            assertThat(pair.target.queryLong("SELECT source_server_id FROM binlog_applier.applier_position"
                + " WHERE stream = '" + DB + "'")).isEqualTo(1);
            String saved = TestApplier.savedPosition(pair.target, DB);

            pair.source.execute("INSERT INTO " + DB + ".t VALUES (3, 'a3')");
            address.retarget(other.port());
            ApplierException e = TestApplier.runExpectingFailure(config);
            assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_CHANGED);
            assertThat(e.getMessage()).contains("is server_id 7").contains("is in server_id 1's binlog")
                .contains("set-position --config <file> 0-1-");
            assertThat(rows(pair.target)).isEqualTo("1:a1,2:a2");
            assertThat(TestApplier.savedPosition(pair.target, DB)).isEqualTo(saved);

            // The address back at server 1: the run goes on from where it stopped.
            address.retarget(pair.source.port());
            TestApplier.runUntilCurrent(config);
            assertThat(rows(pair.target)).isEqualTo("1:a1,2:a2,3:a3");
        }
    }

    @Test
    void aReconnectByFilePositionToAnotherServerStopsWith19AndAppliesNothingOfIt() throws Exception {
        try (ServerPair pair = ServerPair.start(List.of(), List.of());
             MariaDb other = otherSource();
             TcpProxy address = TcpProxy.to(pair.source.port())) {
            String start = TestApplier.currentPosition(pair.source);
            histories(pair.source, other);
            ApplierConfig config = config(pair, address, start, false);
            BackgroundApplier applier = new BackgroundApplier(config, PipelineMetrics.NONE, "source-identity");
            try (applier) {
                BackgroundApplier.await("rows 1 and 2 applied", 60, () -> rows(pair.target).equals("1:a1,2:a2"),
                    applier.failure);
                String saved = TestApplier.savedPosition(pair.target, DB);
                // The virtual IP moves: the open connection is reset, the next one reaches server 7.
                address.retarget(other.port());
                address.cut();
                address.restore();
                pair.source.execute("INSERT INTO " + DB + ".t VALUES (3, 'a3')");
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (applier.running() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(rows(pair.target)).isEqualTo("1:a1,2:a2");
                assertThat(applier.running()).as("the applier stopped").isFalse();
                assertThat(applier.failure.get()).isInstanceOf(ApplierException.class);
                assertThat(((ApplierException) applier.failure.get()).exitCode()).isEqualTo(ExitCode.SOURCE_CHANGED);
                assertThat(TestApplier.savedPosition(pair.target, DB)).isEqualTo(saved);
            }
        }
    }

    @Test
    void aTargetUserWithoutAlterRunsOnFromAnOlderStateTableUnchecked() {
        try (ServerPair pair = ServerPair.start(List.of(), List.of())) {
            String start = TestApplier.currentPosition(pair.source);
            pair.source.execute("CREATE DATABASE " + DB, "CREATE TABLE " + DB + ".t (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO " + DB + ".t VALUES (1, 'a1')");
            pair.target.execute("CREATE DATABASE binlog_applier", OLD_STATE_TABLE,
                "CREATE USER 'writer'@'%' IDENTIFIED BY 'writer'", "GRANT ALL PRIVILEGES ON " + DB + ".* TO 'writer'@'%'",
                "GRANT SELECT, INSERT, UPDATE, DELETE, CREATE ON binlog_applier.* TO 'writer'@'%'");
            String yaml = TestApplier.yaml(pair, DB, start, "optimistic", 2, null)
                .replace("  user: root\n  password: \"\"\n", "  user: writer\n  password: writer\n");
            ApplierConfig config = new ConfigLoader().parse(yaml, "test", DB);
            TestApplier.runUntilCurrent(config);
            pair.source.execute("INSERT INTO " + DB + ".t VALUES (2, 'a2')");
            TestApplier.runUntilCurrent(config);
            assertThat(rows(pair.target)).isEqualTo("1:a1,2:a2");
            assertThat(pair.target.queryLong("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA ="
                + " 'binlog_applier' AND TABLE_NAME = 'applier_position' AND COLUMN_NAME = 'source_server_id'")).isZero();
        }
    }

    /** A second source: server_id 7, the same options and replication user as the pair's. */
    private static MariaDb otherSource() {
        MariaDb m = MariaDb.start("source7", 7, List.of("--log-bin=mysql-bin", "--binlog-format=ROW",
            "--binlog-row-image=FULL", "--log-slave-updates=0", "--gtid-domain-id=0", "--expire-logs-days=0"));
        m.execute("SET SESSION sql_log_bin=0", "CREATE USER 'repl'@'%' IDENTIFIED BY 'repl'",
            "GRANT REPLICATION SLAVE, REPLICATION CLIENT, BINLOG MONITOR, SELECT ON *.* TO 'repl'@'%'");
        return m;
    }

    /**
     * The same schema, made the same way on both (so the file positions line up), then rows 1 and 2
     * with other values, and 40 more rows on server 7 only: its binlog runs past source 1's end.
     */
    private static void histories(MariaDb source, MariaDb other) {
        for (MariaDb m : List.of(source, other)) {
            String tag = m == source ? "a" : "b";
            m.execute("CREATE DATABASE " + DB, "CREATE TABLE " + DB + ".t (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO " + DB + ".t VALUES (1, '" + tag + "1'), (2, '" + tag + "2')");
        }
        for (int i = 3; i < 43; i++) {
            other.execute("INSERT INTO " + DB + ".t VALUES (" + i + ", 'b" + i + "')");
        }
    }

    private static ApplierConfig config(ServerPair pair, TcpProxy address, String start, boolean once) {
        String yaml = TestApplier.yaml(pair, DB, start, "optimistic", 2, null)
            .replace("port: " + pair.source.port(), "port: " + address.port());
        if (!once) {
            yaml = yaml.replace("  reconnect_attempts: 0\n", "  connect_timeout: 3s\n");
        }
        return new ConfigLoader().parse(yaml, "test", DB);
    }

    private static String rows(MariaDb target) {
        if (target.queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '" + DB + "'") == 0) {
            return "";
        }
        String r = target.queryString("SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM " + DB + ".t");
        return r == null ? "" : r;
    }
}
