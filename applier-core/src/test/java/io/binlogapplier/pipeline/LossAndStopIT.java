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
 * Lost servers, and stops that meet them. {@code target.reconnect_attempts} counts reconnects in a row
 * without progress, across pipelines: a target that takes every reconnect and then kills the applier's
 * sessions before anything commits (here a row lock the test holds, and a loop killing the applier
 * user's connections, as a query killer on a busy server would) must use the attempts up and exit 20.
 * Each reconnect used to start counting at 1, so the applier went round for as long as the sessions kept
 * being killed. A stop requested while a server is out of reach (during start-up, or before the target
 * is lost mid-unit) ends the run as a stop.
 */
class LossAndStopIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @Test
    void sessionsKilledBeforeAnyCommitUseTheTargetsReconnectAttemptsUp() throws Exception {
        String db = "streak";
        ApplierConfig cfg = oneUpdateAsApp(db, "  reconnect_attempts: 2\n").config();
        AtomicBoolean killing = new AtomicBoolean(true);
        AtomicInteger killed = new AtomicInteger();
        try (Connection lock = SERVERS.target().connect(); Statement holder = lock.createStatement()) {
            lock.setAutoCommit(false);
            holder.executeQuery("SELECT * FROM " + db + ".t WHERE id = 1 FOR UPDATE").close();
            Thread killer = new Thread(() -> killLoop(killing, killed), "killer");
            CompletableFuture<ApplierException> run = CompletableFuture.supplyAsync(
                () -> TestApplier.runExpectingFailure(cfg));
            try {
                // killing from the start could end the run there (exit 20 at start, no reconnect counted)
                awaitLockWait(run::isDone);
                killer.start();

                ApplierException e = run.get(60, TimeUnit.SECONDS);

                assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(ExitCode.TARGET_UNREACHABLE);
                assertThat(e.getMessage()).contains("gave up after 2 reconnects: target.reconnect_attempts");
                assertThat(killed.get()).as("sessions killed").isGreaterThanOrEqualTo(3);
            } finally {
                killing.set(false);
                if (killer.isAlive()) {
                    killer.join();
                }
                lock.rollback();
            }
        }
        assertThat(SERVERS.target().queryLong("SELECT v FROM " + db + ".t WHERE id = 1")).isZero();
    }

    /**
     * A stop requested while a unit waits on the target, which is then lost (its session killed), ends the
     * run as a stop: no failure, nothing of the unit committed, the position where it was. It used to end
     * with the loss (exit 20, which systemd counts as the service failing), while a stop that came a moment
     * later, in the reconnect wait, ended it cleanly.
     */
    @Test
    void aStopRequestedBeforeTheTargetIsLostEndsTheRunCleanly() throws Exception {
        String db = "stop_lost";
        Setup setup = oneUpdateAsApp(db, "");
        ApplierConfig cfg = setup.config();
        String start = setup.start();
        try (Connection lock = SERVERS.target().connect(); Statement holder = lock.createStatement()) {
            lock.setAutoCommit(false);
            holder.executeQuery("SELECT * FROM " + db + ".t WHERE id = 1 FOR UPDATE").close();
            BackgroundApplier applier = new BackgroundApplier(cfg, PipelineMetrics.NONE, "applier-stop-lost");
            try {
                awaitLockWait(() -> applier.failure.get() != null);
                CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> {
                    try {
                        applier.close();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                Thread.sleep(500); // the stop waits for the unit in flight
                assertThat(applier.running()).as("waiting for the unit in flight").isTrue();
                SERVERS.target().execute("KILL CONNECTION " + SERVERS.target().queryLong("SELECT trx_mysql_thread_id"
                    + " FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT' LIMIT 1"));

                stopping.get(30, TimeUnit.SECONDS);

                assertThat(applier.running()).isFalse();
                assertThat(applier.failure.get()).as("a stop, not a failure").isNull();
            } finally {
                lock.rollback();
            }
        }
        assertThat(SERVERS.target().queryLong("SELECT v FROM " + db + ".t WHERE id = 1")).isZero();
        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).isEqualTo(start);
    }

    /**
     * SIGTERM while the start waits for a source that does not answer (a silent network) ends the run as a
     * stop once the connect gives up, not with exit 10: under systemd, {@code systemctl stop} then left the
     * unit failed.
     */
    @Test
    void aStopDuringStartUpWhileTheSourceDoesNotAnswerEndsAsAStop() throws Exception {
        try (io.binlogapplier.harness.TcpProxy toSource = io.binlogapplier.harness.TcpProxy.to(SERVERS.source().port())) {
            toSource.drop();
            String yaml = TestApplier.yaml(SERVERS.servers(), "stop_start", "current", "conservative", 1, null);
            int at = yaml.indexOf("port: " + SERVERS.source().port());
            yaml = yaml.substring(0, at) + "port: " + toSource.port() + "\n  connect_timeout: 2s"
                + yaml.substring(at + ("port: " + SERVERS.source().port()).length());
            ApplierConfig cfg = new ConfigLoader().parse(yaml, "test", "stop_start");
            BackgroundApplier applier = new BackgroundApplier(cfg, PipelineMetrics.NONE, "applier-stop-start");
            Thread.sleep(500);

            applier.close(); // requests the stop, waits for the run to end

            assertThat(applier.running()).isFalse();
            assertThat(applier.failure.get()).as("a stop, not exit 10").isNull();
            assertThat(applier.status.state()).isEqualTo(ApplierStatus.State.STOPPED);
        }
    }

    /** A stream's configuration and the source position it starts at. */
    private record Setup(ApplierConfig config, String start) {
    }

    /**
     * Schema {@code db} with row (1, 0) on both servers, one source UPDATE of it to apply, and a
     * configuration that applies it as target user 'app' (whose sessions the tests kill), with
     * {@code targetExtra} appended to the target section.
     */
    private static Setup oneUpdateAsApp(String db, String targetExtra) {
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB",
                "INSERT INTO " + db + ".t VALUES (1, 0)");
        }
        SERVERS.target().execute("CREATE USER IF NOT EXISTS 'app'@'%' IDENTIFIED BY 'app'",
            "GRANT ALL ON *.* TO 'app'@'%'");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("UPDATE " + db + ".t SET v = 1 WHERE id = 1");
        return new Setup(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1, null)
            .replace("  user: root\n  password: \"\"\n", "  user: app\n  password: app\n" + targetExtra), "test", db),
            start);
    }

    /** Waits until a transaction on the target waits for a row lock; fails when {@code ended} first. */
    private static void awaitLockWait(java.util.function.BooleanSupplier ended) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.INNODB_TRX"
            + " WHERE trx_state = 'LOCK WAIT'") == 0) {
            assertThat(ended.getAsBoolean()).as("the applier ended before its unit waited for the lock").isFalse();
            if (System.nanoTime() > deadline) {
                StringBuilder dump = new StringBuilder();
                for (String q : List.of("SELECT ID, USER, COMMAND, TIME, STATE, INFO FROM information_schema.PROCESSLIST",
                    "SELECT trx_id, trx_state, trx_mysql_thread_id, trx_query FROM information_schema.INNODB_TRX")) {
                    try (Connection c = SERVERS.target().connect(); Statement st = c.createStatement();
                         ResultSet rs = st.executeQuery(q)) {
                        while (rs.next()) {
                            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                                dump.append(rs.getString(i)).append(i == rs.getMetaData().getColumnCount() ? "\n" : " | ");
                            }
                        }
                    }
                }
                throw new AssertionError("no transaction waited for the row lock within 60 s:\n" + dump);
            }
            // InnoDB refreshes INNODB_TRX only when it was last read more than 0.1 s ago: asked more often,
            // it would never show the wait
            Thread.sleep(250);
        }
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
