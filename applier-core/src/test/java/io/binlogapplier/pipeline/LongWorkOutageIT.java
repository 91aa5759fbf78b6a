package io.binlogapplier.pipeline;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.errors.Side;
import io.binlogapplier.harness.ServerPair;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TcpProxy;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Long legitimate work on the target, with and without a lost connection in the middle: a unit of
 * 100,000 rows whose connection is reset half-way (and an UPDATE of all of them, as net effects),
 * and an ALTER TABLE that waits over a minute for a metadata lock another session holds. The long
 * ALTER must not be taken for a partition (no reconnect while it waits); a reset during a second one
 * must be ridden out with the ALTER applied exactly once. Every table matches at the end.
 */
class LongWorkOutageIT {
    private static final String DB = "longwork";

    @Test
    void aResetDuringABigUnitOrALongAlterLosesAndDuplicatesNothingAndALongAlterIsNoPartition() throws Exception {
        try (ServerPair pair = ServerPair.start(); TcpProxy toTarget = TcpProxy.to(pair.target.port())) {
            String start = TestApplier.currentPosition(pair.source);
            pair.source.execute("CREATE DATABASE " + DB,
                "CREATE TABLE " + DB + ".big (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(200) NOT NULL)");
            String yaml = TestApplier.yaml(pair, DB, start, "conservative", 2, null)
                .replace("port: " + pair.target.port(), "port: " + toTarget.port())
                .replace("  password: \"\"\n", "  password: \"\"\n  connect_timeout: 3s\n");
            ApplierConfig config = new ConfigLoader().parse(yaml, "longwork", DB);
            AtomicInteger targetReconnects = new AtomicInteger();
            BackgroundApplier run = new BackgroundApplier(config, new PipelineMetrics() {
                @Override
                public void reconnect(String side) {
                    if (side.equals("target")) {
                        targetReconnects.incrementAndGet();
                    }
                }
            }, "longwork-applier");
            ApplierStatus status = run.status;
            AtomicReference<Throwable> failure = run.failure;
            try {
                awaitCaughtUp(pair, failure);

                // 1. A 100,000-row INSERT, its connection reset while it is being applied. A session on
                // the target holds row 99,999 meanwhile, so the unit is still open when the reset comes.
                resetWhileApplying(pair, toTarget, status, failure,
                    "INSERT INTO " + DB + ".big VALUES (99999, 0, 'blocker')",
                    "USE " + DB + "; INSERT INTO big SELECT seq, seq % 100, REPEAT('x', 180) FROM seq_1_to_100000");
                awaitCaughtUp(pair, failure);
                assertThat(pair.target.queryLong("SELECT COUNT(*) FROM " + DB + ".big")).isEqualTo(100_000);

                // 2. The same for an UPDATE of every row (net effects under the SQL method).
                resetWhileApplying(pair, toTarget, status, failure,
                    "SELECT * FROM " + DB + ".big WHERE id = 99999 FOR UPDATE",
                    "UPDATE " + DB + ".big SET k = k + 1, pad = REPEAT('y', 150)");
                awaitCaughtUp(pair, failure);
                TableComparison.assertSame(pair.source, pair.target, DB);

                // 3. An ALTER that waits 65 s for a metadata lock on the target: no reconnect.
                int before = targetReconnects.get();
                try (Connection blocker = pair.target.connect(); Statement s = blocker.createStatement()) {
                    blocker.setAutoCommit(false);
                    s.executeQuery("SELECT * FROM " + DB + ".big LIMIT 1").close(); // holds the table's MDL
                    pair.source.execute("ALTER TABLE " + DB + ".big ADD COLUMN c1 INT NOT NULL DEFAULT 1");
                    BackgroundApplier.await("the ALTER waiting on the target", 30, () -> alterWaiting(pair), failure);
                    long waitUntil = System.nanoTime() + 65_000_000_000L;
                    while (System.nanoTime() < waitUntil) {
                        assertThat(status.reconnect()).as("a long ALTER is not a lost target").isNull();
                        assertThat(failure.get()).isNull();
                        Thread.sleep(500);
                    }
                    assertThat(alterWaiting(pair)).as("still waiting after 65 s").isTrue();
                    blocker.commit();
                }
                awaitCaughtUp(pair, failure);
                assertThat(targetReconnects.get()).as("no reconnect during the long ALTER").isEqualTo(before);

                // 4. Another long ALTER, its connection reset while it waits: applied once, after a reconnect.
                try (Connection blocker = pair.target.connect(); Statement s = blocker.createStatement()) {
                    blocker.setAutoCommit(false);
                    s.executeQuery("SELECT * FROM " + DB + ".big LIMIT 1").close();
                    pair.source.execute("ALTER TABLE " + DB + ".big ADD COLUMN c2 INT NOT NULL DEFAULT 2",
                        "UPDATE " + DB + ".big SET c2 = 3 WHERE id <= 10");
                    BackgroundApplier.await("the second ALTER waiting on the target", 30, () -> alterWaiting(pair), failure);
                    toTarget.cut();
                    toTarget.restore();
                    BackgroundApplier.await("the reset noticed", 30, () -> targetReconnects.get() > before, failure);
                    Thread.sleep(5_000);
                    blocker.commit();
                }
                awaitCaughtUp(pair, failure);
                TableComparison.assertSame(pair.source, pair.target, DB);
                assertThat(pair.target.queryLong("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '"
                    + DB + "' AND TABLE_NAME = 'big'")).isEqualTo(5);
                assertThat(run.running()).as("the applier never ended: " + failure.get()).isTrue();
            } finally {
                run.close();
            }
            assertThat(failure.get()).as("the applier ended with a failure").isNull();
        }
    }

    /**
     * Runs {@code sourceSql} on the source while a target session holds a row lock ({@code blockSql})
     * the unit will need; once the unit's statements run on the target (they wait for that lock at the
 * latest), resets every
     * target connection, waits until the applier noticed, then lets the lock go.
     */
    private static void resetWhileApplying(ServerPair pair, TcpProxy toTarget, ApplierStatus status,
                                           AtomicReference<Throwable> failure, String blockSql, String sourceSql)
        throws Exception {
        try (Connection blocker = pair.target.connect(); Statement s = blocker.createStatement()) {
            blocker.setAutoCommit(false);
            s.execute(blockSql);
            pair.source.execute(sourceSql);
            long blockerId = connectionId(blocker);
            BackgroundApplier.await("a large unit in progress on the target", 60, () -> pair.target.queryLong(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID <> " + blockerId
                    + " AND INFO LIKE '%longwork%big%' AND INFO NOT LIKE '%PROCESSLIST%'") > 0, failure);
            Thread.sleep(300);
            toTarget.cut();
            toTarget.restore();
            BackgroundApplier.await("the reset noticed", 30, () -> status.reconnect() != null
                && status.reconnect().side() == Side.TARGET, failure);
            blocker.rollback();
        }
    }

    private static long connectionId(Connection c) throws java.sql.SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT CONNECTION_ID()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean alterWaiting(ServerPair pair) {
        return pair.target.queryLong("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'ALTER TABLE%'"
            + " AND STATE LIKE 'Waiting for table metadata lock%'") > 0;
    }

    private static void awaitCaughtUp(ServerPair pair, AtomicReference<Throwable> failure) throws Exception {
        try {
            awaitCaughtUpOrFail(pair, failure);
        } catch (AssertionError e) {
            System.out.println("PROCESSLIST: " + pair.target.queryString("SELECT GROUP_CONCAT(CONCAT(ID, '/', COMMAND, '/',"
                + " IFNULL(STATE, ''), '/', TIME, '/', LEFT(IFNULL(INFO, ''), 80)) SEPARATOR ' | ') FROM"
                + " information_schema.PROCESSLIST"));
            System.out.println("INNODB_TRX: " + pair.target.queryString("SELECT GROUP_CONCAT(CONCAT(trx_mysql_thread_id,"
                + " '/', trx_state, '/', trx_rows_modified) SEPARATOR ' | ') FROM information_schema.INNODB_TRX"));
            throw e;
        }
    }

    private static void awaitCaughtUpOrFail(ServerPair pair, AtomicReference<Throwable> failure) throws Exception {
        BackgroundApplier.await("caught up", 120, () -> {
            try {
                return TestApplier.currentPosition(pair.source).equals(pair.target.queryString(
                    "SELECT CONCAT(binlog_file, ':', binlog_offset) FROM binlog_applier.applier_position"
                        + " WHERE stream = '" + DB + "'"));
            } catch (IllegalStateException e) {
                return false; // the state table is not there yet
            }
        }, failure);
    }
}
