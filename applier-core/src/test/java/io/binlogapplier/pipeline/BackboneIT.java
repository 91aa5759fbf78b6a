package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.Sysbench;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.binlogapplier.durability.Durability;
import io.binlogapplier.status.RunTable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** The backbone end to end against real servers: one worker, catch-up with --until current. */
class BackboneIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @ParameterizedTest(name = "apply.method {0}")
    @ValueSource(strings = {"sql", "binlog"})
    void sysbenchWriteOnlyLeavesEveryTableIdentical(String method) {
        String db = "sbtest_" + method;
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db);
        Sysbench.run(SERVERS.source(), db, "oltp_write_only", "prepare", "--tables=4", "--table-size=10000");
        Sysbench.run(SERVERS.source(), db, "oltp_write_only", "run", "--tables=4", "--table-size=10000",
            "--threads=16", "--time=10");
        ApplierConfig cfg = config("sysbench_" + method, start, method);

        Applier.Outcome outcome = TestApplier.runUntilCurrent(cfg);

        TableComparison.Report report = TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(report.tables()).hasSize(4);
        assertThat(outcome.transactions()).isGreaterThan(1000);
        assertThat(TestApplier.savedPosition(SERVERS.target(), "sysbench_" + method))
            .isEqualTo(TestApplier.currentPosition(SERVERS.source()));
    }

    @ParameterizedTest(name = "apply.method {0}")
    @ValueSource(strings = {"sql", "binlog"})
    void ddlInterleavedWithDmlLeavesEveryTableIdentical(String method) throws IOException {
        String start = TestApplier.currentPosition(SERVERS.source());
        String script = resource("/scenarios/ddl.sql").replace("ddl_a", "ddl_a_" + method)
            .replace("ddl_b", "ddl_b_" + method).replace("ddl_gone", "ddl_gone_" + method);
        SERVERS.source().runScript(script);
        ApplierConfig cfg = config("ddl_" + method, start, method);

        TestApplier.runUntilCurrent(cfg);

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "ddl_a_" + method, "ddl_b_" + method);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.SCHEMATA"
            + " WHERE SCHEMA_NAME = 'ddl_gone_" + method + "'")).isZero();
        assertThat(SERVERS.target().queryString("SELECT COLUMN_NAME FROM information_schema.COLUMNS"
            + " WHERE TABLE_SCHEMA = 'ddl_a_" + method + "' AND TABLE_NAME = 't1_renamed' AND ORDINAL_POSITION = 1"))
            .isEqualTo("c");
    }

    /**
     * The BINLOG method merges a unit's source statements into few target statements; the
     * foreign-key flag each source statement carried must still hold for its rows: a child row
     * written with foreign_key_checks=0 between two checked statements applies.
     */
    @ParameterizedTest(name = "apply.method {0}")
    @ValueSource(strings = {"sql", "binlog"})
    void perStatementForeignKeyChecksSurviveInOneTransaction(String method) {
        String db = "fkflags_" + method;
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".p (id INT PRIMARY KEY) ENGINE=InnoDB",
            "CREATE TABLE " + db + ".c (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES " + db
                + ".p (id)) ENGINE=InnoDB",
            "CREATE TABLE " + db + ".other (id INT PRIMARY KEY) ENGINE=InnoDB");
        SERVERS.source().execute("BEGIN", "INSERT INTO " + db + ".other VALUES (1)", "SET foreign_key_checks = 0",
            "INSERT INTO " + db + ".c VALUES (1, 999)", "SET foreign_key_checks = 1",
            "INSERT INTO " + db + ".p VALUES (5)", "INSERT INTO " + db + ".c VALUES (2, 5)",
            "INSERT INTO " + db + ".other VALUES (2)", "COMMIT");

        TestApplier.runUntilCurrent(config("fkflags_" + method, start, method));

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".c")).isEqualTo(2);
    }

    /**
     * With the target's max_allowed_packet at 1 MB a BINLOG statement carries at most 512 KB of
     * events, so units of several 200 KB transactions travel in more than one.
     */
    @ParameterizedTest(name = "apply.method {0}")
    @ValueSource(strings = {"sql", "binlog"})
    void aUnitLargerThanOneBinlogStatementArrivesWhole(String method) {
        String db = "big_" + method;
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v VARCHAR(1000)) ENGINE=InnoDB");
        String[] inserts = new String[40];
        for (int s = 0; s < inserts.length; s++) {
            inserts[s] = "INSERT INTO " + db + ".t SELECT seq + " + (s * 200) + ", REPEAT(CHAR(65 + " + (s % 26)
                + "), 1000) FROM " + db + ".seq_1_to_200";
        }
        SERVERS.source().execute(inserts);
        long packet = SERVERS.target().queryLong("SELECT @@GLOBAL.max_allowed_packet");
        SERVERS.target().execute("SET GLOBAL max_allowed_packet = 1048576");
        Applier.Outcome outcome;
        try {
            outcome = TestApplier.runUntilCurrent(config("big_" + method, start, method));
        } finally {
            SERVERS.target().execute("SET GLOBAL max_allowed_packet = " + packet);
        }

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(8_000);
        assertThat(outcome.transactions()).isEqualTo(42);
    }

    /**
     * The state row's {@code updated_at} says when the applier wrote it, by the target's clock: not the
     * source's statement time, which BINLOG statements and {@code SET timestamp} leave on a worker's
     * session (here 2020, for the DDL and the rows alike).
     */
    @ParameterizedTest(name = "apply.method {0}")
    @ValueSource(strings = {"sql", "binlog"})
    void theStateRowSaysWhenTheApplierWroteItNotWhenTheSourceCommitted(String method) {
        String db = "written_" + method;
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("SET TIMESTAMP = UNIX_TIMESTAMP('2020-01-01 00:00:00')", "CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY) ENGINE=InnoDB", "INSERT INTO " + db + ".t VALUES (1)",
            "INSERT INTO " + db + ".t VALUES (2)", "SET TIMESTAMP = DEFAULT");

        TestApplier.runUntilCurrent(config(db, start, method));

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        long age = SERVERS.target().queryLong("SELECT TIMESTAMPDIFF(SECOND, updated_at, NOW(6))"
            + " FROM binlog_applier.applier_position WHERE stream = '" + db + "'");
        assertThat(age).as("seconds since the state row was written").isBetween(0L, 600L);
    }

    /**
     * The SQL method writes a unit's rows of one table as few multi-row statements; with the
     * target's max_allowed_packet at 1 MB, 100 rows of 20 KB inserted one per transaction (one unit)
     * must still arrive, in statements each within the packet; so must an update and a delete of the rows
     * of a table without a key, whose copies are counted with their values bound in one statement.
     */
    @Test
    void aNetEffectLargerThanTheTargetsPacketGoesInStatementsThatFit() {
        String db = "packet_sql";
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, b MEDIUMBLOB) ENGINE=InnoDB",
            "CREATE TABLE " + db + ".k (b MEDIUMBLOB, n INT) ENGINE=InnoDB");
        String[] inserts = new String[200];
        for (int i = 0; i < 100; i++) {
            inserts[2 * i] = "INSERT INTO " + db + ".t VALUES (" + i + ", REPEAT(CHAR(65 + " + (i % 26) + "), 20000))";
            inserts[2 * i + 1] = "INSERT INTO " + db + ".k VALUES (REPEAT(CHAR(65 + " + (i % 26) + "), 20000), " + i + ")";
        }
        SERVERS.source().execute(inserts);
        long packet = SERVERS.target().queryLong("SELECT @@GLOBAL.max_allowed_packet");
        SERVERS.target().execute("SET GLOBAL max_allowed_packet = 1048576");
        try {
            ApplierConfig cfg = new io.binlogapplier.config.ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(),
                db, start, "conservative", 1, "  method: sql\n  unit_max_transactions: 1000\n"), "test", db);
            TestApplier.runUntilCurrent(cfg);
            // Rows of the keyless table the target holds: their copies are counted, a chunk of values a statement.
            SERVERS.source().execute("UPDATE " + db + ".k SET n = n + 1000", "DELETE FROM " + db + ".k WHERE n % 3 = 0");
            TestApplier.runUntilCurrent(cfg);
        } finally {
            SERVERS.target().execute("SET GLOBAL max_allowed_packet = " + packet);
        }

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
    }

    /**
     * The applier's own bookkeeping rows carry the target's clock, even when written on a pool
     * connection a worker left at the source's statement time (a BINLOG statement or
     * {@code SET timestamp} of 2020 here): the run row's start, beat, stop and last error, and the
     * time the original flush settings were saved.
     */
    @Test
    void bookkeepingTimesAreTheTargetsClockWhateverTimeTheSessionWasLeftAt() throws Exception {
        String schema = "binlog_applier";
        RunTable runs = new RunTable(schema, "clock");
        try (Connection c = SERVERS.target().connect()) {
            runs.ensureTable(c);
            sessionAt2020(c);
            runs.register(c, "host", 1, 1);
            assertThat(ageSeconds("started_at")).isBetween(0L, 600L);
            sessionAt2020(c);
            runs.alive(c, 1);
            assertThat(ageSeconds("alive_at")).isBetween(0L, 600L);
            sessionAt2020(c);
            runs.recordError(c, new ApplierException(ExitCode.TARGET_DATA_CONFLICT, "planted"), null);
            assertThat(ageSeconds("error_at")).isBetween(0L, 600L);
            sessionAt2020(c);
            runs.stopped(c);
            assertThat(ageSeconds("stopped_at")).isBetween(0L, 600L);
            sessionAt2020(c);
            assertThat(runs.process(c, "clock").orElseThrow().aliveAgoSeconds()).isBetween(0.0, 600.0);
        }

        long[] savedAge = new long[1];
        Durability durability = new Durability(io.binlogapplier.config.DurabilityConfig.DEFAULT, schema, "clock",
            () -> {
                Connection c = SERVERS.target().connect();
                sessionAt2020(c);
                return c;
            }, new Durability.Listener() {
                @Override
                public void relaxed(boolean relaxed) {
                    if (relaxed) {
                        savedAge[0] = SERVERS.target().queryLong("SELECT TIMESTAMPDIFF(SECOND, saved_at, NOW(6))"
                            + " FROM " + schema + ".applier_flush_settings WHERE stream = 'clock'");
                    }
                }

                @Override
                public void warning(String message) {
                    throw new AssertionError(message);
                }
            });
        durability.begin(() -> 0);
        durability.end();
        assertThat(savedAge[0]).as("seconds since the flush settings were saved").isBetween(0L, 600L);
    }

    /**
     * durability.mode relaxed, the target out of reach at the first attempt (the pool timed out): the
     * applier applies with the target's own settings for now, and relaxes them once it is back (a
     * reconnect) instead of giving up for the rest of the run.
     */
    @Test
    void flushSettingsAreRelaxedOnceAnUnreachableTargetIsBack() throws Exception {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean relaxed = new java.util.concurrent.atomic.AtomicBoolean();
        SERVERS.target().execute("CREATE DATABASE IF NOT EXISTS binlog_applier"); // as the state table's set-up does
        long before = SERVERS.target().queryLong("SELECT @@GLOBAL.innodb_flush_log_at_trx_commit");
        Durability durability = new Durability(io.binlogapplier.config.DurabilityConfig.DEFAULT, "binlog_applier",
            "flaky", () -> {
                if (calls.incrementAndGet() == 1) {
                    throw new java.sql.SQLTransientConnectionException("pool timed out");
                }
                return SERVERS.target().connect();
            }, new Durability.Listener() {
                @Override
                public void relaxed(boolean on) {
                    relaxed.set(on);
                }

                @Override
                public void warning(String message) {
                }
            });
        try {
            durability.begin(() -> 0);
            assertThat(relaxed).as("not relaxed while the target cannot be reached").isFalse();

            durability.targetReconnected();

            assertThat(relaxed).as("relaxed once it is back").isTrue();
            assertThat(SERVERS.target().queryLong("SELECT @@GLOBAL.innodb_flush_log_at_trx_commit")).isEqualTo(2);
        } finally {
            durability.end();
        }
        assertThat(SERVERS.target().queryLong("SELECT @@GLOBAL.innodb_flush_log_at_trx_commit")).isEqualTo(before);
    }

    private static void sessionAt2020(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET timestamp = UNIX_TIMESTAMP('2020-01-01 00:00:00')");
        }
    }

    private static long ageSeconds(String column) {
        return SERVERS.target().queryLong("SELECT TIMESTAMPDIFF(SECOND, " + column + ", UTC_TIMESTAMP(6))"
            + " FROM binlog_applier.applier_run WHERE stream = 'clock'");
    }

    private static ApplierConfig config(String name, String start, String method) {
        return new io.binlogapplier.config.ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), name, start,
            "conservative", 1, "  method: " + method + "\n"), "test", name);
    }

    @Test
    void restartWithNothingNewExitsCleanlyAndChangesNothing() {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE idle", "CREATE TABLE idle.t (id INT PRIMARY KEY)",
            "INSERT INTO idle.t VALUES (1),(2)");
        ApplierConfig cfg = TestApplier.config(SERVERS.servers(), "idle", start, "conservative", 1);
        TestApplier.runUntilCurrent(cfg);
        String row = stateRow("idle");

        Applier.Outcome again = TestApplier.runUntilCurrent(cfg);

        assertThat(again.nothingToDo()).isTrue();
        assertThat(again.transactions()).isZero();
        assertThat(stateRow("idle")).isEqualTo(row);
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "idle");
    }

    @Test
    void missingTargetTableStopsWithSchemaMismatchAndKeepsThePosition() {
        SERVERS.source().execute("CREATE DATABASE miss", "CREATE TABLE miss.t (id INT PRIMARY KEY)");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("INSERT INTO miss.t VALUES (1)");
        ApplierConfig cfg = TestApplier.config(SERVERS.servers(), "miss", start, "conservative", 1);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_SCHEMA_MISMATCH);
        assertThat(e.getMessage()).contains("`miss`.`t`").contains("does not exist on the target");
        assertThat(TestApplier.savedPosition(SERVERS.target(), "miss")).isEqualTo(start);
    }

    @Test
    void theComparisonItselfReportsTheRowsThatDiffer() {
        for (var server : java.util.List.of(SERVERS.source(), SERVERS.target())) {
            server.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE cmp",
                "CREATE TABLE cmp.t (id INT PRIMARY KEY, v VARBINARY(10))", "INSERT INTO cmp.t VALUES (1, 'same')");
        }
        SERVERS.source().execute("SET SESSION sql_log_bin = 0", "INSERT INTO cmp.t VALUES (2, 0x00ff)");
        SERVERS.target().execute("INSERT INTO cmp.t VALUES (3, 'extra')");

        TableComparison.Report r = TableComparison.compare(SERVERS.source(), SERVERS.target(), "cmp");

        assertThat(r.same()).isFalse();
        assertThat(r.toString()).contains("only on source: ('2', 0x00ff)").contains("only on target: ('3', 'extra')");
    }

    private static String stateRow(String stream) {
        return SERVERS.target().queryString("SELECT CONCAT_WS('|', binlog_file, binlog_offset, gtid_set,"
            + " applied_transactions, updated_at) FROM binlog_applier.applier_position WHERE stream = '" + stream + "'");
    }

    static String resource(String name) throws IOException {
        try (InputStream in = BackboneIT.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
