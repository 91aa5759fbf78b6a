package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /**
     * A crash after a DDL ran and before the position moved past it: the restart must not run it again
     * when that would not fail. A RENAME swap run twice swaps the tables back, an EXCHANGE PARTITION
     * exchanges the rows back, and every later row change lands in the wrong table. The crash is an
     * Error thrown by the worker right after it applied the DDL (the position row still marks it pending).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"rename", "exchange"})
    void aDdlThatRanBeforeACrashIsNotRunAgain(String ddl) throws InterruptedException {
        String db = "again_" + ddl;
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".a (id INT, d DATE, v INT, PRIMARY KEY (id, d))",
                "CREATE TABLE " + db + ".b (id INT, d DATE, v INT, PRIMARY KEY (id, d))",
                "CREATE TABLE " + db + ".p (id INT, d DATE, v INT, PRIMARY KEY (id, d)) PARTITION BY RANGE (YEAR(d))"
                    + " (PARTITION p2020 VALUES LESS THAN (2021), PARTITION pmax VALUES LESS THAN MAXVALUE)",
                "INSERT INTO " + db + ".a VALUES (1, '2019-01-01', 1)",
                "INSERT INTO " + db + ".b VALUES (2, '2020-01-01', 2)",
                "INSERT INTO " + db + ".p VALUES (3, '2019-06-01', 3), (4, '2024-01-01', 4)");
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("UPDATE " + db + ".a SET v = v + 10");
        String beforeDdl = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute(ddl.equals("rename")
            ? "RENAME TABLE " + db + ".a TO " + db + ".tmp, " + db + ".b TO " + db + ".a, " + db + ".tmp TO " + db + ".b"
            : "ALTER TABLE " + db + ".p EXCHANGE PARTITION p2020 WITH TABLE " + db + ".b");
        SERVERS.source().execute("UPDATE " + db + ".a SET v = v + 100", "UPDATE " + db + ".b SET v = v + 1000");
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "optimistic", 4,
            "  method: binlog\n"), "test", db);
        new Applier(cfg, PipelineMetrics.NONE, 30_000).run(new Applier.Until.At(BinlogCoordinates.parseOrNull(beforeDdl)));

        AtomicBoolean fired = new AtomicBoolean();
        Faults crashAfterTheDdl = (point, part) -> {
            if (point == Faults.Point.WORKER_PART_APPLIED && part.head().start().equals(BinlogCoordinates.parseOrNull(
                beforeDdl)) && fired.compareAndSet(false, true)) {
                throw new OutOfMemoryError("injected by the test after the DDL");
            }
        };
        assertThatThrownBy(() -> new Applier(cfg, PipelineMetrics.NONE, 30_000, new ApplierStatus(Clock.systemUTC()),
            crashAfterTheDdl).run(new Applier.Until.Current()))
            .isInstanceOfSatisfying(ApplierException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.INTERNAL));
        assertThat(fired).isTrue();
        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).as("the position is still before the DDL")
            .isEqualTo(beforeDdl);

        TestApplier.runUntilCurrent(cfg);

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
    }
}
