package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Migrating a running native MariaDB replica to the applier and back, under a write load on the
 * source: the target is a real replica (CHANGE MASTER TO / START SLAVE) of the throwaway source;
 * its SQL thread is stopped, {@code adopt} takes its position, the applier continues; then the
 * applier is stopped, {@code handback --execute} points the replica at the applier's position and
 * START SLAVE continues. Every transaction adds to a counter row, so one applied twice or missed
 * shows in the table comparison; a duplicate key or missing row stops either side with an error.
 */
class AdoptIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair(List.of(), List.of("--skip-slave-start"));

    /** Writes transactions on the source until stopped: an insert and a counter increment each. */
    private static final class Load implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicLong written = new AtomicLong();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Thread thread;

        Load(String db, long firstId) {
            thread = new Thread(() -> {
                try (Connection c = SERVERS.source().connect(); Statement s = c.createStatement()) {
                    for (long id = firstId; !stop.get(); id++) {
                        s.execute("BEGIN");
                        s.execute("INSERT INTO " + db + ".t VALUES (" + id + ", " + id % 97 + ")");
                        s.execute("UPDATE " + db + ".counters SET n = n + 1, last = " + id + " WHERE id = " + id % 5);
                        s.execute("COMMIT");
                        written.incrementAndGet();
                        Thread.sleep(2);
                    }
                } catch (SQLException | InterruptedException e) {
                    failure.set(e);
                }
            }, "adopt-it-load");
            thread.start();
        }

        long written() {
            return written.get();
        }

        void awaitMore(long n) throws InterruptedException {
            long until = written() + n;
            while (written() < until && thread.isAlive()) {
                Thread.sleep(20);
            }
        }

        /** Stops the load and checks it did not fail; closing again does nothing more. */
        void stop() {
            stop.set(true);
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            assertThat(failure.get()).as("the load").isNull();
        }

        @Override
        public void close() {
            stop();
        }
    }

    private static InProcessCli.Output cli(String... args) {
        InProcessCli.Output out = InProcessCli.main(args);
        System.out.println("$ binlog-applier " + String.join(" ", args) + "  [exit " + out.code() + "]\n" + out.text());
        return out;
    }

    private static String column(String name) {
        try (Connection c = SERVERS.target().connect(); Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SHOW SLAVE STATUS")) {
            return rs.next() ? rs.getString(name) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until the native replica has executed everything the source has written. */
    private static void awaitReplicaCaughtUp() throws InterruptedException {
        String sourceGtid = SERVERS.source().queryString("SELECT @@gtid_binlog_pos");
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            String applied = SERVERS.target().queryString("SELECT @@gtid_slave_pos");
            assertThat(column("Last_SQL_Errno")).as("replica error: " + column("Last_SQL_Error")).isEqualTo("0");
            if (sourceGtid.equals(applied)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the native replica did not catch up with " + sourceGtid + ": at "
            + SERVERS.target().queryString("SELECT @@gtid_slave_pos"));
    }

    @ParameterizedTest(name = "replica by {0}")
    @ValueSource(strings = {"gtid", "file"})
    void aNativeReplicaIsAdoptedUnderLoadAndHandedBackWithNothingLostOrTwice(String by) throws Exception {
        String db = "mig_" + by;
        SERVERS.target().execute("STOP SLAVE", "RESET SLAVE ALL");
        String sourceAt = TestApplier.currentPosition(SERVERS.source());
        String[] fp = sourceAt.split(":");
        if (by.equals("gtid")) {
            SERVERS.target().execute("SET GLOBAL gtid_slave_pos = '" + SERVERS.source().queryString(
                "SELECT @@gtid_binlog_pos") + "'");
        }
        SERVERS.target().execute("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=" + SERVERS.source().port()
            + ", MASTER_USER='repl', MASTER_PASSWORD='repl', " + (by.equals("gtid") ? "MASTER_USE_GTID=slave_pos"
            : "MASTER_USE_GTID=no, MASTER_LOG_FILE='" + fp[0] + "', MASTER_LOG_POS=" + fp[1]), "START SLAVE");
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id BIGINT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB",
            "CREATE TABLE " + db + ".counters (id INT PRIMARY KEY, n BIGINT NOT NULL, last BIGINT NOT NULL)"
                + " ENGINE=InnoDB",
            "INSERT INTO " + db + ".counters VALUES (0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0)");
        Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), db, "current", "optimistic", 4, null));

        try (Load load = new Load(db, 1)) {
            load.awaitMore(300);
            InProcessCli.Output refusedRunning = cli("adopt", "--config", cfg.toString());
            SERVERS.target().execute("STOP SLAVE SQL_THREAD");
            load.awaitMore(300); // the source moves on; the replica's I/O thread keeps reading

            InProcessCli.Output adopted = cli("adopt", "--config", cfg.toString());

            assertThat(refusedRunning.code()).as(refusedRunning.text()).isEqualTo(33);
            assertThat(refusedRunning.text()).contains("STOP SLAVE SQL_THREAD");
            assertThat(adopted.code()).as(adopted.text()).isZero();
            assertThat(adopted.text()).contains("(resume by " + by + "; replica Using_Gtid="
                + (by.equals("gtid") ? "Slave_Pos" : "No"));
            try (CliRun applier = CliRun.start("run", "--config", cfg.toString())) {
                load.awaitMore(500);
                load.stop();
                String end = TestApplier.currentPosition(SERVERS.source());
                applier.awaitThat("caught up with " + end, 120, () -> end.equals(SERVERS.target().queryString(
                    "SELECT CONCAT(binlog_file, ':', binlog_offset) FROM binlog_applier.applier_position WHERE"
                        + " stream = '" + db + "'")), () -> "");
                applier.terminate();
                assertThat(applier.await(60).exitCode()).isZero();
            }
        }
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        long afterApplier = SERVERS.target().queryLong("SELECT SUM(n) FROM " + db + ".counters");

        // As if the applier had been killed while it held the flush settings relaxed: its saved originals stay
        // for its next start, which never comes after a handback.
        String before = SERVERS.target().queryString("SELECT CONCAT(@@innodb_flush_log_at_trx_commit, '/',"
            + " @@sync_binlog)");
        SERVERS.target().execute("INSERT INTO binlog_applier.applier_flush_settings (stream,"
            + " innodb_flush_log_at_trx_commit, sync_binlog) VALUES ('" + db + "', 1, 1)",
            "SET GLOBAL innodb_flush_log_at_trx_commit = 2", "SET GLOBAL sync_binlog = 0");
        if (by.equals("file")) {
            // The applier's file position as another server's (after a failover behind the source's address):
            // the replica would start there in this server's binlog. Refused (19), nothing changed.
            SERVERS.target().execute("UPDATE binlog_applier.applier_position SET source_server_id = 99"
                + " WHERE stream = '" + db + "'");
            InProcessCli.Output otherServer = cli("handback", "--config", cfg.toString(), "--execute");
            SERVERS.target().execute("UPDATE binlog_applier.applier_position SET source_server_id = 1"
                + " WHERE stream = '" + db + "'");
            assertThat(otherServer.code()).as(otherServer.text()).isEqualTo(19);
            assertThat(otherServer.text()).contains("is in server_id 99's binlog");
            assertThat(column("Slave_SQL_Running")).isEqualTo("No");
        }
        InProcessCli.Output handedBack = cli("handback", "--config", cfg.toString(), "--execute");
        String after = SERVERS.target().queryString("SELECT CONCAT(@@innodb_flush_log_at_trx_commit, '/', @@sync_binlog)");
        SERVERS.target().execute("SET GLOBAL innodb_flush_log_at_trx_commit = " + before.split("/")[0],
            "SET GLOBAL sync_binlog = " + before.split("/")[1]);
        assertThat(after).as("flush settings put back by handback").isEqualTo("1/1");
        assertThat(handedBack.text()).contains("were put back as they were before it");
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM binlog_applier.applier_flush_settings WHERE"
            + " stream = '" + db + "'")).isZero();
        SERVERS.target().execute("START SLAVE");
        try (Load more = new Load(db, 1_000_000)) {
            more.awaitMore(400);
        }
        awaitReplicaCaughtUp();
        CliRun.Result besideTheReplica = CliRun.run(60, "run", "--config", cfg.toString(), "--until", "current");

        assertThat(handedBack.code()).as(handedBack.text()).isZero();
        assertThat(handedBack.text()).contains(by.equals("gtid") ? "MASTER_USE_GTID = slave_pos" : "MASTER_LOG_POS");
        assertThat(column("Slave_SQL_Running")).isEqualTo("Yes");
        assertThat(besideTheReplica.exitCode()).as("the applier beside a native replica of the same source: "
            + besideTheReplica.output()).isEqualTo(33);
        assertThat(column("Last_SQL_Errno")).isEqualTo("0");
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(SERVERS.target().queryLong("SELECT SUM(n) FROM " + db + ".counters"))
            .isEqualTo(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isGreaterThan(afterApplier);
        SERVERS.target().execute("STOP SLAVE");

        // Native replication stopped (an error, an operator) after it had applied past the handed-back
        // position: the applier's own saved position is stale, and a run from it would apply all that again.
        CliRun.Result afterNativeStopped = CliRun.run(60, "run", "--config", cfg.toString(), "--until", "current");
        assertThat(afterNativeStopped.exitCode()).as(afterNativeStopped.output()).isEqualTo(33);
        assertThat(afterNativeStopped.output()).contains("past the applier's saved position").contains("adopt");
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
    }

    /**
     * A target that also replicates through a named connection: gtid_slave_pos is one for every
     * connection, so a handback that sets it would move the other source's position too. Refused (32),
     * nothing changed.
     */
    @org.junit.jupiter.api.Test
    void aHandbackThatWouldMoveAnotherConnectionsGtidPositionIsRefused() throws Exception {
        String db = "mig_multi";
        SERVERS.target().execute("STOP SLAVE", "RESET SLAVE ALL",
            "SET GLOBAL gtid_slave_pos = '" + SERVERS.source().queryString("SELECT @@gtid_binlog_pos") + "'",
            "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=" + SERVERS.source().port()
                + ", MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos",
            "CHANGE MASTER 'other' TO MASTER_HOST='127.0.0.1', MASTER_PORT=9, MASTER_USER='nobody'");
        try {
            SERVERS.source().execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".t (id INT PRIMARY KEY)",
                "INSERT INTO " + db + ".t VALUES (1)");
            Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), db, "current", "conservative", 1, null));
            InProcessCli.Output adopted = cli("set-position", "--config", cfg.toString(),
                SERVERS.source().queryString("SELECT @@gtid_binlog_pos"));
            String before = SERVERS.target().queryString("SELECT @@gtid_slave_pos");

            InProcessCli.Output handedBack = cli("handback", "--config", cfg.toString(), "--by", "gtid", "--execute");

            assertThat(adopted.code()).as(adopted.text()).isZero();
            assertThat(handedBack.code()).as(handedBack.text()).isEqualTo(32);
            assertThat(handedBack.text()).contains("'other'").contains("gtid_slave_pos");
            assertThat(SERVERS.target().queryString("SELECT @@gtid_slave_pos")).isEqualTo(before);
        } finally {
            SERVERS.target().execute("RESET SLAVE 'other' ALL", "RESET SLAVE ALL");
        }
    }

    /**
     * A DBA who skips adopt: the native replica, stopped behind the source, and a first run (no saved
     * position) with the default start: current. It started at the source's end and never applied what
     * the replica had not (exit 0); now refused with 33, nothing applied, no state row written.
     */
    @org.junit.jupiter.api.Test
    void aFirstRunThatWouldSkipWhatAStoppedNativeReplicaHasNotAppliedIsRefused() throws Exception {
        String db = "mig_skipped";
        try {
            stoppedReplicaWith(db, "INSERT INTO " + db + ".t VALUES (1)");
            SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (2)");
            Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), db, "current", "conservative", 1, null));

            InProcessCli.Output run = cli("run", "--config", cfg.toString(), "--until", "current");

            assertThat(run.code()).as(run.text()).isEqualTo(33);
            assertThat(run.text()).contains("would be skipped").contains("adopt");
            assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM binlog_applier.applier_position WHERE stream = '"
                + db + "'")).isZero();
            InProcessCli.Output adopted = cli("adopt", "--config", cfg.toString());
            InProcessCli.Output afterAdopt = cli("run", "--config", cfg.toString(), "--until", "current");
            assertThat(adopted.code()).as(adopted.text()).isZero();
            assertThat(afterAdopt.code()).as(afterAdopt.text()).isZero();
            assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(2);
        } finally {
            SERVERS.target().execute("STOP SLAVE", "RESET SLAVE ALL");
        }
    }

    /**
     * START SLAVE on the target while the applier runs (after an adopt): both would apply every
     * transaction. The applier checked only at start and ran on; now its target watch sees the native
     * SQL thread within a few seconds and stops with 33.
     */
    @org.junit.jupiter.api.Test
    void nativeReplicationStartedBehindARunningApplierStopsIt() throws Exception {
        String db = "mig_behind";
        try {
            stoppedReplicaWith(db);
            Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), db, "current", "conservative", 1, null));
            InProcessCli.Output adopted = cli("adopt", "--config", cfg.toString());
            assertThat(adopted.code()).as(adopted.text()).isZero();
            java.util.concurrent.CountDownLatch streaming = new java.util.concurrent.CountDownLatch(1);
            io.binlogapplier.pipeline.Applier applier = new io.binlogapplier.pipeline.Applier(
                new io.binlogapplier.config.ConfigLoader().parse(java.nio.file.Files.readString(cfg), "test", db),
                new io.binlogapplier.pipeline.PipelineMetrics() {
                    @Override
                    public void streamStarted(io.binlogapplier.pipeline.PipelineProbe probe) {
                        streaming.countDown();
                    }
                }, 30_000);
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread running = new Thread(() -> {
                try {
                    applier.run(new io.binlogapplier.pipeline.Applier.Until.Forever());
                    ended.set(new AssertionError("ended without an error"));
                } catch (Throwable e) {
                    ended.set(e);
                }
            });
            running.start();
            try {
                assertThat(streaming.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                SERVERS.target().execute("START SLAVE SQL_THREAD");
                running.join(60_000);
            } finally {
                applier.requestStop();
                running.join(60_000);
            }
            assertThat(ended.get()).isInstanceOfSatisfying(io.binlogapplier.ApplierException.class, e -> {
                assertThat(e.exitCode().code()).isEqualTo(33);
                assertThat(e.getMessage()).contains("SQL thread running");
            });
        } finally {
            SERVERS.target().execute("STOP SLAVE", "RESET SLAVE ALL");
        }
    }

    /**
     * The target a native replica (by GTID) of the source, caught up with schema {@code db} (table t) and
     * {@code more} statements, then stopped.
     */
    private static void stoppedReplicaWith(String db, String... more) throws InterruptedException {
        SERVERS.target().execute("STOP SLAVE", "RESET SLAVE ALL",
            "SET GLOBAL gtid_slave_pos = '" + SERVERS.source().queryString("SELECT @@gtid_binlog_pos") + "'",
            "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=" + SERVERS.source().port()
                + ", MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos", "START SLAVE");
        SERVERS.source().execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".t (id INT PRIMARY KEY)");
        if (more.length > 0) {
            SERVERS.source().execute(more);
        }
        awaitReplicaCaughtUp();
        SERVERS.target().execute("STOP SLAVE");
    }
}
