package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TcpProxy;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stop is never lost: SIGTERM at 20 random moments of a run (during start-up, while waiting to
 * reconnect to a lost source, in the middle of a backlog of small units, idle, inside a
 * transaction large enough to travel in parts) ends the process with exit 0 within 2 s when nothing
 * is in flight and 5 s when a unit is, with the
 * target's flush settings put back and none of the large transaction committed in part. At the end
 * one catch-up leaves every table equal to the source's: a position saved wrong would show as a
 * duplicate key (exit 23) or a difference. The moments are drawn from a seed printed at the start;
 * {@code -Dstop.seed=N} replays a run.
 */
class StopIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final String DB = "stopit";
    private static final String STRICT = "1/1";
    /** Rows of the large transaction: about 24 MB of row events, three ring parts. */
    private static final int BIG_ROWS = 24_000;

    private enum Moment { START_UP, RECONNECT_BACKOFF, MID_BACKLOG, IDLE, INSIDE_LARGE_TRANSACTION }

    @Test
    void aSigtermAtAnyMomentExitsZeroWithinFiveSecondsAndLeavesNothingPartial() throws Exception {
        long seed = Long.getLong("stop.seed", System.nanoTime());
        System.out.println("StopIT seed " + seed + " (-Dstop.seed=" + seed + " replays these moments)");
        Random random = new Random(seed);
        SERVERS.target().execute("SET GLOBAL innodb_flush_log_at_trx_commit = 1", "SET GLOBAL sync_binlog = 1");
        SERVERS.source().execute("CREATE DATABASE " + DB,
            "CREATE TABLE " + DB + ".t (id BIGINT AUTO_INCREMENT PRIMARY KEY, pad VARCHAR(100) NOT NULL)",
            "CREATE TABLE " + DB + ".big (id INT PRIMARY KEY, batch INT NOT NULL, pad VARCHAR(1000) NOT NULL)");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.target().execute("CREATE DATABASE " + DB,
            "CREATE TABLE " + DB + ".t (id BIGINT AUTO_INCREMENT PRIMARY KEY, pad VARCHAR(100) NOT NULL)",
            "CREATE TABLE " + DB + ".big (id INT PRIMARY KEY, batch INT NOT NULL, pad VARCHAR(1000) NOT NULL)");

        List<String> report = new ArrayList<>();
        int bigBatches = 0;
        try (TcpProxy proxy = TcpProxy.to(SERVERS.source().port())) {
            String yaml = TestApplier.yaml(SERVERS.servers(), DB, start, "optimistic", 4, null)
                .replace("port: " + SERVERS.source().port(), "port: " + proxy.port())
                .replace("reconnect_attempts: 0", "reconnect_attempts: 1000");
            Path cfg = Configs.write(yaml);
            Moment[] moments = Moment.values();
            for (int round = 0; round < 20; round++) {
                Moment m = moments[round % moments.length];
                if (m == Moment.INSIDE_LARGE_TRANSACTION) {
                    bigBatches++;
                    SERVERS.source().execute("INSERT INTO " + DB + ".big SELECT seq + " + (bigBatches * BIG_ROWS)
                        + ", " + bigBatches + ", REPEAT('x', 1000) FROM " + DB + ".seq_1_to_" + BIG_ROWS);
                } else {
                    insert(m == Moment.MID_BACKLOG ? 3_000 : 200);
                }
                try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
                    long delayMillis = reach(m, run, proxy, random);
                    long sent = System.nanoTime();
                    run.terminate();
                    CliRun.Result r = run.await(60);
                    double seconds = (System.nanoTime() - sent) / 1e9;
                    proxy.restore();
                    String what = String.format("round %d, %s + %d ms: exit %d after %.2f s", round, m, delayMillis,
                        r.exitCode(), seconds);
                    report.add(what);
                    assertThat(r.exitCode()).as(what + "\n" + r.output()).isZero();
                    // nothing in flight: within a second or two; a unit in flight may first finish
                    assertThat(seconds).as(what + "\n" + r.output())
                        .isLessThan(m == Moment.MID_BACKLOG || m == Moment.INSIDE_LARGE_TRANSACTION ? 5.0 : 2.0);
                    assertThat(globals()).as(what + ": flush settings put back\n" + r.output()).isEqualTo(STRICT);
                    long bigRows = SERVERS.target().queryLong("SELECT COUNT(*) FROM " + DB + ".big");
                    assertThat(bigRows % BIG_ROWS).as(what + ": a large transaction committed in part (" + bigRows
                        + " rows)\n" + r.output()).isZero();
                }
            }
        } finally {
            report.forEach(System.out::println);
        }

        CliRun.Result last = CliRun.run(300, "run", "--config", Configs.write(TestApplier.yaml(SERVERS.servers(), DB,
            start, "optimistic", 4, null)).toString(), "--until", "current");
        assertThat(last.exitCode()).as(last.output()).isZero();
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), DB);
        assertThat(position()).isEqualTo(TestApplier.currentPosition(SERVERS.source()));
    }

    /** Brings the run to moment {@code m}, plus a random delay; returns that delay. */
    private static long reach(Moment m, CliRun run, TcpProxy proxy, Random random) throws Exception {
        long delay;
        switch (m) {
            case START_UP -> {
                // from the process start: config, connections, position (the JVM installs no handler
                // of ours in its first few hundred ms of boot, where SIGTERM ends it with 143)
                delay = 500 + random.nextInt(1_500);
            }
            case RECONNECT_BACKOFF -> {
                await("caught up", run, 60, StopIT::caughtUp);
                proxy.cut();
                // losses in a row wait 0.5, 1, 2, then 4 s before reconnecting: stop in the 4 s wait
                await("waiting to reconnect", run, 30,
                    () -> run.output().split("reconnecting to the source in", -1).length > 4);
                delay = random.nextInt(800);
            }
            case MID_BACKLOG -> {
                String before = position();
                await("applying", run, 60, () -> !java.util.Objects.equals(before, position()));
                delay = random.nextInt(300);
            }
            case IDLE -> {
                await("caught up", run, 60, StopIT::caughtUp);
                delay = random.nextInt(1_000);
            }
            default -> {
                String before = position();
                await("reading the large transaction", run, 60,
                    () -> !java.util.Objects.equals(before, position()) || run.output().contains("connecting to source"));
                delay = random.nextInt(2_500);
            }
        }
        Thread.sleep(delay);
        return delay;
    }

    private static void insert(int transactions) throws SQLException {
        try (Connection c = SERVERS.source().connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + DB + ".t (pad) VALUES (?)")) {
            for (int i = 0; i < transactions; i++) {
                ps.setString(1, "row " + i);
                ps.executeUpdate();
            }
        }
    }

    private static boolean caughtUp() {
        return TestApplier.currentPosition(SERVERS.source()).equals(position());
    }

    private static String position() {
        if (SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA ="
            + " 'binlog_applier' AND TABLE_NAME = 'applier_position'") == 0) {
            return null;
        }
        return SERVERS.target().queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
            + " binlog_applier.applier_position WHERE stream = '" + DB + "'");
    }

    private static String globals() {
        return SERVERS.target().queryString("SELECT CONCAT(@@GLOBAL.innodb_flush_log_at_trx_commit, '/',"
            + " @@GLOBAL.sync_binlog)");
    }

    private static void await(String what, CliRun run, int seconds, BooleanSupplier condition)
        throws InterruptedException {
        run.awaitThat(what, seconds, condition, () -> "position " + position());
    }
}
