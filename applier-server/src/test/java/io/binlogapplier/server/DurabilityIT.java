package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The target's flush settings and graceful stops, with the applier in its own JVM: relaxed while
 * it runs, the originals saved first and put back on a clean stop (SIGTERM, --until), kept across
 * a SIGKILL and put back later; two appliers on one target; a target user without the privilege;
 * relaxed only while lagging.
 */
class DurabilityIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final String STRICT = "1/1";
    private static final String RELAXED = "2/0";

    @BeforeEach
    void strictTarget() {
        // The harness starts its servers relaxed; a production target is strict.
        SERVERS.target().execute("SET GLOBAL innodb_flush_log_at_trx_commit = 1", "SET GLOBAL sync_binlog = 1");
        SERVERS.target().execute("CREATE DATABASE IF NOT EXISTS binlog_applier");
        SERVERS.target().execute("DROP TABLE IF EXISTS binlog_applier.applier_flush_settings");
    }

    @Test
    void aGracefulStopPersistsThePositionAndPutsTheFlushSettingsBackAndTheNextStartResumesExactly() throws Exception {
        String start = prepare("stopdb");
        insert("stopdb", 500);
        SERVERS.source().execute("UPDATE stopdb.u SET v = 1 WHERE id = 1");
        insert("stopdb", 500);
        // Units of 200 (with one worker, auto would allow 1,000): the first ones commit before the unit that
        // meets the locked row, so the applier is seen applying, then waiting.
        Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), "stop", start, "conservative", 1,
            "  unit_max_transactions: 200\n"));

        try (Connection lock = SERVERS.target().connect(); CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            hold(lock, "stopdb");
            await("the applier waits for the locked row", run, 60, () -> applied("stop") > 0 && waiting());
            assertThat(globals()).isEqualTo(RELAXED);
            assertThat(saved("stop")).isEqualTo(STRICT);

            run.terminate(); // SIGTERM while a unit waits for the lock: it must finish, not be cut off
            Thread.sleep(500);
            lock.rollback();
            CliRun.Result r = run.await(60);

            assertThat(r.exitCode()).as(r.output()).isZero();
            assertThat(r.output()).contains("stop requested").contains("put the target's flush settings back");
        }
        assertThat(globals()).as("the originals are back").isEqualTo(STRICT);
        assertThat(saved("stop")).isNull();
        long appliedAtStop = applied("stop");
        assertThat(appliedAtStop).as("the unit that waited for the lock committed").isGreaterThan(500);

        insert("stopdb", 300);
        CliRun.Result again = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");

        assertThat(again.exitCode()).as(again.output()).isZero();
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "stopdb");
        assertThat(applied("stop")).as("every source transaction exactly once").isEqualTo(1 + 1000 + 300);
        assertThat(position("stop")).isEqualTo(TestApplier.currentPosition(SERVERS.source()));
        assertThat(globals()).isEqualTo(STRICT);
    }

    @Test
    void afterASigkillTheSavedOriginalsAreKeptByTheNextStartAndPutBackByItsCleanStop() throws Exception {
        String start = prepare("killdb");
        Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), "kill", start, "conservative", 1, null));

        try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            await("relaxed", run, 60, () -> RELAXED.equals(globals()) && STRICT.equals(saved("kill")));
            assertThat(run.kill()).isEqualTo(137);
        }
        assertThat(globals()).as("nobody put them back").isEqualTo(RELAXED);
        assertThat(saved("kill")).as("the originals survive the crash").isEqualTo(STRICT);

        insert("killdb", 50);
        try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            await("applied", run, 60, () -> applied("kill") == 50);
            assertThat(run.output()).contains("saved by a run that did not stop cleanly");
            assertThat(saved("kill")).as("not overwritten with the relaxed values it found").isEqualTo(STRICT);
            assertThat(globals()).isEqualTo(RELAXED);
            run.terminate();
            assertThat(run.await(60).exitCode()).isZero();
        }
        assertThat(globals()).isEqualTo(STRICT);
        assertThat(saved("kill")).isNull();

        try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            await("relaxed again", run, 60, () -> RELAXED.equals(globals()) && STRICT.equals(saved("kill")));
            run.kill();
        }
        // A start that fails before its own durability (here the source refuses connections: exit 10) puts
        // back what the crashed run left: no later start may come (after a handback, none does).
        Path noSource = Configs.write(Files.readString(cfg).replace("port: " + SERVERS.source().port(), "port: 1"));
        CliRun.Result failed = CliRun.run(60, "run", "--config", noSource.toString(), "--until", "current");
        assertThat(failed.exitCode()).as(failed.output()).isEqualTo(10);
        assertThat(globals()).as("put back by a start that failed").isEqualTo(STRICT);
        assertThat(saved("kill")).isNull();

        try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            await("relaxed once more", run, 60, () -> RELAXED.equals(globals()) && STRICT.equals(saved("kill")));
            run.kill();
        }
        Path unchanged = Configs.write(TestApplier.yaml(SERVERS.servers(), "kill", start, "conservative", 1,
            "durability:\n  mode: unchanged\n"));
        CliRun.Result r = CliRun.run(120, "run", "--config", unchanged.toString(), "--until", "current");

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(globals()).as("durability.mode unchanged still puts back what a crashed run left").isEqualTo(STRICT);
        assertThat(saved("kill")).isNull();
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "killdb");
    }

    @Test
    void twoAppliersOnOneTargetRestoreTheOriginalsOnlyWhenTheLastOneStops() throws Exception {
        String start = prepare("twodb");
        Path first = Configs.write(TestApplier.yaml(SERVERS.servers(), "first", start, "conservative", 1, null));
        Path second = Configs.write(TestApplier.yaml(SERVERS.servers(), "second", start, "conservative", 1, null)
            .replace("server_id: 4242", "server_id: 4243"));

        try (CliRun a = CliRun.start("run", "--config", first.toString())) {
            await("first relaxed", a, 60, () -> RELAXED.equals(globals()) && STRICT.equals(saved("first")));
            try (CliRun b = CliRun.start("run", "--config", second.toString())) {
                await("second started", b, 60, () -> saved("second") != null && position("second") != null);
                assertThat(saved("second")).as("the originals, copied from the first").isEqualTo(STRICT);

                a.terminate();
                CliRun.Result ra = a.await(60);
                assertThat(ra.exitCode()).as(ra.output()).isZero();
                assertThat(ra.output()).contains("left the target's flush settings relaxed: applier(s) second");
                assertThat(globals()).as("the second still applies").isEqualTo(RELAXED);
                assertThat(saved("first")).isNull();

                b.terminate();
                CliRun.Result rb = b.await(60);
                assertThat(rb.exitCode()).as(rb.output()).isZero();
            }
        }
        assertThat(globals()).isEqualTo(STRICT);
        assertThat(saved("second")).isNull();
    }

    @Test
    void aTargetUserWithoutThePrivilegeGetsOneWarningAndTheTargetsOwnSettings() throws Exception {
        String start = prepare("privdb");
        SERVERS.target().execute("DROP USER IF EXISTS 'weak'@'%'", "CREATE USER 'weak'@'%' IDENTIFIED BY 'weak'",
            "GRANT ALL ON privdb.* TO 'weak'@'%'", "GRANT ALL ON binlog_applier.* TO 'weak'@'%'");
        insert("privdb", 20);
        String yaml = TestApplier.yaml(SERVERS.servers(), "weak", start, "conservative", 1, null)
            .replace("  user: root\n  password: \"\"\n", "  user: weak\n  password: weak\n");
        assertThat(yaml).contains("user: weak");

        CliRun.Result r = CliRun.run(120, "run", "--config", Configs.write(yaml).toString(), "--until", "current");

        assertThat(r.exitCode()).as(r.output()).isZero();
        List<String> warnings = r.output().lines().filter(l -> l.contains(" WARN ")).toList();
        assertThat(warnings).as(r.output()).hasSize(1);
        assertThat(warnings.get(0)).contains("cannot relax the target's flush settings")
            .contains("needs SUPER").contains("durability.mode: unchanged");
        assertThat(r.output()).doesNotContain("\tat ");
        assertThat(globals()).isEqualTo(STRICT);
        assertThat(saved("weak")).isNull();
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "privdb");
    }

    @Test
    void relaxedWhileLaggingRelaxesOnceTheLagReachesTheThresholdAndGoesBackOnceItStayedLow() throws Exception {
        String start = prepare("lagdb");
        Endpoint endpoint = new Endpoint(Endpoint.freePort());
        Path cfg = Configs.write(endpoint.enable(TestApplier.yaml(SERVERS.servers(), "lagging", start, "conservative",
            1, "durability:\n  mode: relaxed_while_lagging\n  lag_threshold: 1s\n  strict_after: 5s\n")));

        try (Connection lock = SERVERS.target().connect(); CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            endpoint.awaitState("caught_up", run, 60);
            Thread.sleep(2_500);
            assertThat(globals()).as("no lag: the target's own settings").isEqualTo(STRICT);
            assertThat(endpoint.scrape()).contains("binlog_applier_flush_relaxed{target=\"lagging\"} 0.0");

            hold(lock, "lagdb");
            SERVERS.source().execute("UPDATE lagdb.u SET v = 1 WHERE id = 1");
            // the settings change before the metric does: wait for both
            await("relaxed while the applier waits for the lock", run, 15,
                () -> RELAXED.equals(globals()) && STRICT.equals(saved("lagging"))
                    && endpoint.scrape().contains("binlog_applier_flush_relaxed{target=\"lagging\"} 1.0"));
            assertThat(Endpoint.lag(endpoint.scrape())).isGreaterThanOrEqualTo(1.0);

            lock.rollback();
            endpoint.awaitState("caught_up", run, 30);
            long caughtUp = System.nanoTime();
            await("strict again", run, 30, () -> STRICT.equals(globals()) && saved("lagging") == null);
            // strict_after 5 s, counted from the policy's first check after the catch-up (up to a second after
            // it), which this test sees up to a poll and a scrape late: far more than 3 s, where a policy that
            // ignored strict_after would go back within about a second
            assertThat((System.nanoTime() - caughtUp) / 1e9).as("not before strict_after").isGreaterThan(3.0);
            await("the metric says strict", run, 10,
                () -> endpoint.scrape().contains("binlog_applier_flush_relaxed{target=\"lagging\"} 0.0"));

            run.terminate();
            assertThat(run.await(60).exitCode()).isZero();
        }
        assertThat(globals()).isEqualTo(STRICT);
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "lagdb");
    }

    // ---- helpers

    /** Tables t (one row per transaction) and u (one row to lock) on both servers; the source position after. */
    private static String prepare(String db) {
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id BIGINT AUTO_INCREMENT PRIMARY KEY, pad VARCHAR(100) NOT NULL)",
                "CREATE TABLE " + db + ".u (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO " + db + ".u VALUES (1, 0)");
        }
        return TestApplier.currentPosition(SERVERS.source());
    }

    private static void insert(String db, int transactions) throws SQLException {
        try (Connection c = SERVERS.source().connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + db + ".t (pad) VALUES (?)")) {
            for (int i = 0; i < transactions; i++) {
                ps.setString(1, "row " + i);
                ps.executeUpdate();
            }
        }
    }

    /** Locks the row of {@code u} on the target in an open transaction of {@code c}. */
    private static void hold(Connection c, String db) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT * FROM " + db + ".u WHERE id = 1 FOR UPDATE").close();
        }
    }

    /** A session of the target waits for a row lock. */
    private static boolean waiting() {
        // MariaDB 10.11 was seen listing a blocked UPDATE as RUNNING in INNODB_TRX while its thread
        // sat in "Updating" until innodb_lock_wait_timeout: either view counts.
        return SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.INNODB_TRX"
            + " WHERE trx_state = 'LOCK WAIT'") > 0
            || SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE command ="
            + " 'Execute' AND state = 'Updating' AND info LIKE 'UPDATE `stopdb`.`u`%' AND time_ms >= 500") > 0;
    }

    private static String globals() {
        return SERVERS.target().queryString("SELECT CONCAT(@@GLOBAL.innodb_flush_log_at_trx_commit, '/',"
            + " @@GLOBAL.sync_binlog)");
    }

    /** The originals saved by {@code stream}, or null. */
    private static String saved(String stream) {
        if (SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA ="
            + " 'binlog_applier' AND TABLE_NAME = 'applier_flush_settings'") == 0) {
            return null;
        }
        return SERVERS.target().queryString("SELECT CONCAT(innodb_flush_log_at_trx_commit, '/', sync_binlog) FROM"
            + " binlog_applier.applier_flush_settings WHERE stream = '" + stream + "'");
    }

    /** Transactions {@code stream} applied, or -1 before its state row (or the table) exists. */
    private static long applied(String stream) {
        if (SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA ="
            + " 'binlog_applier' AND TABLE_NAME = 'applier_position'") == 0) {
            return -1;
        }
        String v = SERVERS.target().queryString("SELECT applied_transactions FROM binlog_applier.applier_position"
            + " WHERE stream = '" + stream + "'");
        return v == null ? -1 : Long.parseLong(v);
    }

    private static String position(String stream) {
        return SERVERS.target().queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
            + " binlog_applier.applier_position WHERE stream = '" + stream + "'");
    }

    private static void await(String what, CliRun run, int seconds, BooleanSupplier condition)
        throws InterruptedException {
        run.awaitThat(what, seconds, condition, () -> "flush " + globals() + ", applied " + applied("stop"));
    }
}
