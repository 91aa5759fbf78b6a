package io.binlogapplier.pipeline;

import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** DDL as a DBA's source runs it, applied as the native replica would. */
class DdlIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    /**
     * ALTER TABLE … EXCHANGE PARTITION checks the exchanged table's rows in a transaction of its own and
     * waits for a lock its own session holds when that session runs with autocommit off: it failed with
     * 1205 (lock wait timeout) after 10 s, exit 26, and again at every restart.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"binlog", "sql"})
    void exchangePartitionIsApplied(String method) {
        String db = "xp_" + method;
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".p (id INT, d DATE, v INT, PRIMARY KEY (id, d)) PARTITION BY RANGE (YEAR(d))"
                    + " (PARTITION p2020 VALUES LESS THAN (2021), PARTITION pmax VALUES LESS THAN MAXVALUE)",
                "CREATE TABLE " + db + ".px (id INT, d DATE, v INT, PRIMARY KEY (id, d))",
                "INSERT INTO " + db + ".p VALUES (1, '2019-05-01', 1), (2, '2022-01-01', 2)",
                "INSERT INTO " + db + ".px VALUES (10, '2020-03-03', 10)");
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("INSERT INTO " + db + ".p VALUES (3, '2023-01-01', 3)",
            "ALTER TABLE " + db + ".p EXCHANGE PARTITION p2020 WITH TABLE " + db + ".px",
            "INSERT INTO " + db + ".px VALUES (11, '2018-01-01', 11)");
        String end = TestApplier.currentPosition(SERVERS.source());

        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start,
            "optimistic", 4, "  method: " + method + "\n"), "test", db));

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".px WHERE id IN (1, 11)")).isEqualTo(2);
        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).isEqualTo(end);
    }
}
