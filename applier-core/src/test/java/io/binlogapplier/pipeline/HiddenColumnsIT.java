package io.binlogapplier.pipeline;

import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables whose rows carry columns {@code information_schema} does not show: MariaDB's system-versioned
 * tables (hidden {@code ROW START} and {@code ROW END}, the latter part of the server's primary key) and
 * a long unique key's hidden hash column ({@code UNIQUE (t) USING HASH} on a TEXT). The target must end
 * up with the source's rows and the source's history, times included, under both methods: with lean
 * before images (the default) a DELETE of a versioned row had become a new current row on the target,
 * with its times cut to whole seconds, and under {@code method: sql} both kinds of table stopped the
 * applier with "has 2 columns where the source row has 4". They now go as BINLOG statements with whole
 * images.
 */
class HiddenColumnsIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({"binlog, conservative, 1", "binlog, optimistic, 4", "sql, conservative, 1", "sql, optimistic, 4"})
    void historyAndHiddenHashColumnsMatchTheSource(String method, String mode, int workers) {
        String db = "hid_" + method + "_" + mode;
        String tables = "CREATE TABLE " + db + ".ver (id INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING;"
            + "CREATE TABLE " + db + ".vexp (id INT PRIMARY KEY, v VARCHAR(20),"
            + " rs TIMESTAMP(6) GENERATED ALWAYS AS ROW START, re TIMESTAMP(6) GENERATED ALWAYS AS ROW END,"
            + " PERIOD FOR SYSTEM_TIME (rs, re)) WITH SYSTEM VERSIONING;"
            + "CREATE TABLE " + db + ".hu (id INT PRIMARY KEY, t TEXT, UNIQUE KEY (t)) ENGINE=InnoDB;"
            + "CREATE TABLE " + db + ".plain (id INT PRIMARY KEY, v INT)";
        for (MariaDb m : new MariaDb[] {SERVERS.source(), SERVERS.target()}) {
            m.execute(("SET SESSION sql_log_bin = 0;CREATE DATABASE " + db + ";" + tables).split(";"));
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        for (int round = 0; round < 3; round++) {
            int base = round * 100;
            SERVERS.source().execute("BEGIN",
                "INSERT INTO " + db + ".ver SELECT seq + " + base + ", seq FROM " + db + ".seq_1_to_20",
                "INSERT INTO " + db + ".vexp (id, v) SELECT seq + " + base + ", CONCAT('v', seq) FROM " + db + ".seq_1_to_20",
                "INSERT INTO " + db + ".hu SELECT seq + " + base + ", CONCAT(REPEAT('t', 300), seq + " + base + ")"
                    + " FROM " + db + ".seq_1_to_20",
                "INSERT INTO " + db + ".plain SELECT seq + " + base + ", seq FROM " + db + ".seq_1_to_20",
                "COMMIT");
            // each its own transaction: a history row per change, at the source's times
            SERVERS.source().execute("UPDATE " + db + ".ver SET v = v + 100 WHERE id % 3 = 0",
                "DELETE FROM " + db + ".ver WHERE id % 5 = 0",
                "UPDATE " + db + ".vexp SET v = CONCAT(v, '+') WHERE id % 2 = 0",
                "DELETE FROM " + db + ".vexp WHERE id % 7 = 0",
                "UPDATE " + db + ".hu SET t = CONCAT('moved ', id) WHERE id % 4 = 0",
                "DELETE FROM " + db + ".hu WHERE id % 6 = 0",
                "UPDATE " + db + ".plain SET v = v + 1");
        }
        String yaml = TestApplier.yaml(SERVERS.servers(), db, start, mode, workers, "  method: " + method + "\n");
        TestApplier.runUntilCurrent(new ConfigLoader().parse(yaml, "test", db));

        for (String q : new String[] {
            "SELECT GROUP_CONCAT(id, ':', v, ':', ROW_START, ':', ROW_END ORDER BY id, ROW_START) FROM " + db
                + ".ver FOR SYSTEM_TIME ALL",
            "SELECT GROUP_CONCAT(id, ':', v, ':', rs, ':', re ORDER BY id, rs) FROM " + db + ".vexp FOR SYSTEM_TIME ALL",
            "SELECT GROUP_CONCAT(id, ':', t ORDER BY id) FROM " + db + ".hu",
            "SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM " + db + ".plain"}) {
            String source = SERVERS.source().queryString(q);
            assertThat(source).isNotEmpty();
            assertThat(SERVERS.target().queryString(q)).as(q).isEqualTo(source);
        }
        // the current rows: a deleted row is gone, not a new current version
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".ver")).isEqualTo(
            SERVERS.source().queryLong("SELECT COUNT(*) FROM " + db + ".ver"));
        // the hidden hash still enforces uniqueness on the target: its entries are the source's
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".hu WHERE t = CONCAT('moved ', 4)"))
            .isEqualTo(1);
    }
}
