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
import org.junit.jupiter.api.Test;
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
     * exchanges the rows back, and every later row change lands in the wrong table. A REVOKE and a
     * TRUNCATE (which change no definition, so no witness is recorded for them) are run again: the
     * REVOKE's "no such grant" means it was done and is skipped (it stopped the applier), the TRUNCATE
     * empties the table again. The crash is an Error thrown by the worker right after it applied the
     * statement (the position row still marks it pending).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"rename", "exchange", "revoke", "truncate"})
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
                "INSERT INTO " + db + ".p VALUES (3, '2019-06-01', 3), (4, '2024-01-01', 4)",
                "CREATE USER '" + db + "'@'localhost'", "GRANT SELECT ON " + db + ".a TO '" + db + "'@'localhost'");
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("UPDATE " + db + ".a SET v = v + 10");
        String beforeDdl = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute(switch (ddl) {
            case "rename" -> "RENAME TABLE " + db + ".a TO " + db + ".tmp, " + db + ".b TO " + db + ".a, " + db + ".tmp TO "
                + db + ".b";
            case "exchange" -> "ALTER TABLE " + db + ".p EXCHANGE PARTITION p2020 WITH TABLE " + db + ".b";
            case "revoke" -> "REVOKE SELECT ON " + db + ".a FROM '" + db + "'@'localhost'";
            default -> "TRUNCATE TABLE " + db + ".b";
        });
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
        String grants = "SELECT COUNT(*) FROM mysql.tables_priv WHERE User = '" + db + "'";
        assertThat(SERVERS.target().queryLong(grants)).as("table grants").isEqualTo(SERVERS.source().queryLong(grants));
    }

    /**
     * A trigger and a foreign key a DBA adds on the target while the applier runs (method sql). The
     * applier knew the table definitions from before: without noticing, it applied the table's rows as
     * statements that fired the new trigger, and a net effect turned an UPDATE of the new parent (two
     * unique keys) into a DELETE that cascaded to the child's rows.
     */
    @Test
    void triggersAndForeignKeysAddedOnTheTargetWhileRunningAreHeeded() throws Exception {
        String db = "live";
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT, u INT, UNIQUE KEY (u))",
                "CREATE TABLE " + db + ".audit (id INT AUTO_INCREMENT PRIMARY KEY, t_id INT)",
                "CREATE TABLE " + db + ".par (id INT PRIMARY KEY, code INT NOT NULL UNIQUE, v INT)",
                "CREATE TABLE " + db + ".kid (id INT PRIMARY KEY, pid INT, KEY (pid))",
                "INSERT INTO " + db + ".t SELECT seq, seq, seq FROM " + db + ".seq_1_to_10",
                "INSERT INTO " + db + ".par SELECT seq, seq, 0 FROM " + db + ".seq_1_to_5",
                "INSERT INTO " + db + ".kid SELECT seq, seq FROM " + db + ".seq_1_to_5");
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("UPDATE " + db + ".t SET v = v + 1 WHERE id < 5", "UPDATE " + db + ".par SET v = 1");
        String first = TestApplier.currentPosition(SERVERS.source());
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "optimistic", 1,
            null), "test", db);
        java.util.concurrent.CountDownLatch seen = new java.util.concurrent.CountDownLatch(1);
        Applier applier = new Applier(cfg, new PipelineMetrics() {
            @Override
            public void targetDefinitionsChanged() {
                seen.countDown();
            }
        }, 30_000);
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        Thread running = new Thread(() -> {
            try {
                applier.run(new Applier.Until.Forever());
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        running.start();
        try {
            awaitSaved(db, first);
            SERVERS.target().execute("CREATE TRIGGER " + db + ".t_ai AFTER INSERT ON " + db + ".t FOR EACH ROW"
                    + " INSERT INTO " + db + ".audit (t_id) VALUES (NEW.id)",
                "CREATE TRIGGER " + db + ".t_bu BEFORE UPDATE ON " + db + ".t FOR EACH ROW SET NEW.v = NEW.v + 1000",
                "ALTER TABLE " + db + ".kid ADD CONSTRAINT fk_par FOREIGN KEY (pid) REFERENCES " + db + ".par (id)"
                    + " ON DELETE CASCADE");
            assertThat(seen.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("the DDL on the target was seen").isTrue();
            SERVERS.source().execute("BEGIN", "INSERT INTO " + db + ".t VALUES (11, 11, 11)",
                "UPDATE " + db + ".t SET v = v + 1 WHERE id < 5", "UPDATE " + db + ".t SET u = u + 100 WHERE id = 2",
                "UPDATE " + db + ".par SET v = v + 1 WHERE id < 4", "COMMIT");
            awaitSaved(db, TestApplier.currentPosition(SERVERS.source()));
        } finally {
            applier.requestStop();
            running.join(60_000);
        }
        assertThat(failed.get()).isNull();
        String rows = "SELECT GROUP_CONCAT(CONCAT_WS(',', id, v, u) ORDER BY id) FROM " + db + ".t";
        assertThat(SERVERS.target().queryString(rows)).isEqualTo(SERVERS.source().queryString(rows));
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".audit")).as("trigger rows").isZero();
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".kid")).as("child rows").isEqualTo(5);
    }

    /**
     * Statements that commit by themselves but change no table's definition (grants, account statements,
     * ANALYZE, FLUSH, TRUNCATE) leave the table definitions the applier has read, and the DDL witness's dictionary scans,
     * alone. The applier read every table's definition again after each of them, a few ms a table: on a
     * rig, 100 GRANTs between single-row inserts into 100 tables took 33–39 s to apply where the native
     * replica took 0.4–0.6 s. The target's general log counts the reads: one per table at its first change,
     * one more for the table the ALTER names (the other table is kept), and one witness scan, for the ALTER.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"binlog", "sql"})
    void definitionsAreReadAgainOnlyWhereAStatementMayChangeThem(String method) {
        String db = "keepdefs_" + method;
        String user = "'" + db + "'@'localhost'";
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".alpha (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE " + db + ".beta (id INT PRIMARY KEY, v INT)",
                "CREATE USER " + user);
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute(
            "INSERT INTO " + db + ".alpha VALUES (1, 1)", "INSERT INTO " + db + ".beta VALUES (1, 1)",
            "GRANT SELECT ON " + db + ".alpha TO " + user,
            "INSERT INTO " + db + ".alpha VALUES (2, 2)", "INSERT INTO " + db + ".beta VALUES (2, 2)",
            "ANALYZE TABLE " + db + ".alpha, " + db + ".beta",
            "INSERT INTO " + db + ".alpha VALUES (3, 3)", "INSERT INTO " + db + ".beta VALUES (3, 3)",
            "CREATE USER '" + db + "_2'@'localhost'", "DROP USER '" + db + "_2'@'localhost'",
            "REVOKE SELECT ON " + db + ".alpha FROM " + user, "FLUSH PRIVILEGES", "TRUNCATE TABLE " + db + ".beta",
            "INSERT INTO " + db + ".alpha VALUES (4, 4)", "INSERT INTO " + db + ".beta VALUES (4, 4)",
            "ALTER TABLE " + db + ".alpha ADD COLUMN w INT",
            "INSERT INTO " + db + ".alpha VALUES (5, 5, 5)", "INSERT INTO " + db + ".beta VALUES (5, 5)");
        String end = TestApplier.currentPosition(SERVERS.source());

        SERVERS.target().execute("SET GLOBAL general_log = 0", "TRUNCATE mysql.general_log",
            "SET GLOBAL log_output = 'TABLE'", "SET GLOBAL general_log = 1");
        try {
            TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start,
                "optimistic", 4, "  method: " + method + "\n"), "test", db));
        } finally {
            SERVERS.target().execute("SET GLOBAL general_log = 0");
        }

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).isEqualTo(end);
        String logged = "SELECT COUNT(*) FROM mysql.general_log WHERE command_type IN ('Query', 'Execute')"
            + " AND argument LIKE ";
        for (String table : List.of("alpha", "beta")) {
            assertThat(SERVERS.target().queryLong(logged + "'%FROM information_schema.TRIGGERS%"
                + "EVENT_OBJECT_SCHEMA = ''" + db + "'' AND EVENT_OBJECT_TABLE = ''" + table + "''%'"))
                .as("reads of %s's definition: at its first change, and after the ALTER if it names the table", table)
                .isEqualTo(table.equals("alpha") ? 2 : 1);
        }
        assertThat(SERVERS.target().queryLong(logged + "'%FROM information_schema.INNODB_SYS_TABLES%'"))
            .as("the DDL witness's dictionary scans: for the ALTER only").isEqualTo(1);
    }

    private static void awaitSaved(String db, String position) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!position.equals(savedOrNull(db))) {
            assertThat(System.nanoTime() - deadline).as("applied up to %s in time", position).isNegative();
            Thread.sleep(50);
        }
    }

    /** The saved position, or null before the applier made its state table. */
    private static String savedOrNull(String db) {
        try {
            return TestApplier.savedPosition(SERVERS.target(), db);
        } catch (IllegalStateException e) {
            return null;
        }
    }
}
