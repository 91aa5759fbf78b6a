package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code target.reconnect_attempts} counts reconnects in a row without progress, across pipelines: a
 * target that takes every reconnect and then kills the applier's sessions before anything commits (here
 * a row lock the test holds, and a loop killing the applier user's connections, as a query killer on a
 * busy server would) must use the attempts up and exit 20. Each reconnect used to start counting at 1,
 * so the applier went round for as long as the sessions kept being killed.
 */
class ReconnectStreakIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @Test
    void sessionsKilledBeforeAnyCommitUseTheTargetsReconnectAttemptsUp() throws Exception {
        String db = "streak";
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB",
                "INSERT INTO " + db + ".t VALUES (1, 0)");
        }
        SERVERS.target().execute("CREATE USER 'app'@'%' IDENTIFIED BY 'app'", "GRANT ALL ON *.* TO 'app'@'%'");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("UPDATE " + db + ".t SET v = 1 WHERE id = 1");
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            null).replace("  user: root\n  password: \"\"\n", "  user: app\n  password: app\n  reconnect_attempts: 2\n"),
            "test", db);
        AtomicBoolean killing = new AtomicBoolean(true);
        AtomicInteger killed = new AtomicInteger();
        try (Connection lock = SERVERS.target().connect(); Statement holder = lock.createStatement()) {
            lock.setAutoCommit(false);
            holder.executeQuery("SELECT * FROM " + db + ".t WHERE id = 1 FOR UPDATE").close();
            Thread killer = new Thread(() -> killLoop(killing, killed), "killer");
            killer.start();
            try {
                CompletableFuture<ApplierException> run = CompletableFuture.supplyAsync(
                    () -> TestApplier.runExpectingFailure(cfg));

                ApplierException e = run.get(60, TimeUnit.SECONDS);

                assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(ExitCode.TARGET_UNREACHABLE);
                assertThat(e.getMessage()).contains("gave up after 2 reconnects: target.reconnect_attempts");
                assertThat(killed.get()).as("sessions killed").isGreaterThanOrEqualTo(3);
            } finally {
                killing.set(false);
                killer.join();
                lock.rollback();
            }
        }
        assertThat(SERVERS.target().queryLong("SELECT v FROM " + db + ".t WHERE id = 1")).isZero();
    }

    /** Every 200 ms, KILL every connection of user 'app' (the applier's pool, its ping, its control connection). */
    private static void killLoop(AtomicBoolean killing, AtomicInteger killed) {
        try (Connection c = SERVERS.target().connect(); Statement s = c.createStatement()) {
            while (killing.get()) {
                List<Long> ids = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = 'app'")) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
                for (long id : ids) {
                    try {
                        s.execute("KILL CONNECTION " + id);
                        killed.incrementAndGet();
                    } catch (java.sql.SQLException gone) {
                        // ended on its own meanwhile
                    }
                }
                Thread.sleep(200);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
