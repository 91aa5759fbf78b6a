package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metrics endpoint of the applier in its own JVM: the lag while a backlog is applied, after
 * catching up, on an idle source, and on the first scrape after a SIGKILL; {@code /health};
 * {@code listen: off}; a port already in use.
 */
class MetricsIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    /** Scrapes are compared with the source's commit times, which MariaDB records in whole seconds. */
    private static final double SECOND = 1.0;
    private static final double SLACK = 0.5;

    @Test
    void lagFallsWhileABacklogIsAppliedIsZeroOnceCaughtUpAndStaysZeroOnAnIdleSourceForAMinute() throws Exception {
        String start = prepare("lagdb");
        Endpoint endpoint = new Endpoint(Endpoint.freePort());
        // One transaction per unit, applied row by row: the backlog takes seconds to apply, long enough
        // for scrapes every 100 ms to watch the lag fall (as net effects it went in well under a second).
        Path cfg = Configs.write(endpoint.enable(TestApplier.yaml(SERVERS.servers(), "lag", start, "conservative", 1,
            "  method: sql\n  unit_max_transactions: 1\n  net_effect: false\n")));
        long markerMillis;
        try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            endpoint.awaitState("caught_up", run, 60);
            markerMillis = marker("lagdb");
            awaitApplied("lag", "lagdb", run);
            run.terminate();
            assertThat(run.await(60).exitCode()).isZero();
        }
        Load backlog = load("lagdb", 8_000, 300);
        Thread.sleep(2_000);

        List<double[]> samples = new ArrayList<>(); // {seconds since backlog start, lag}
        String health;
        try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            String first = endpoint.firstScrape(run, 60);
            samples.add(new double[] {(System.currentTimeMillis() - backlog.startMillis) / 1000.0, Endpoint.lag(first)});
            while (true) {
                double lag = Endpoint.lag(endpoint.scrape());
                samples.add(new double[] {(System.currentTimeMillis() - backlog.startMillis) / 1000.0, lag});
                if (lag == 0) {
                    break;
                }
                assertThat(samples.size()).as("caught up within 400 scrapes: " + describe(samples)).isLessThan(400);
                Thread.sleep(100);
            }
            System.out.println("backlog of " + backlog.transactions + " transactions over " + backlog.seconds()
                + " s; lag samples (s since backlog start: lag): " + describe(samples));
            double[] firstSample = samples.get(0);
            assertThat(firstSample[1]).as("the first scrape shows the backlog's age: " + describe(samples))
                .isGreaterThanOrEqualTo(firstSample[0] - SLACK)
                .isLessThanOrEqualTo((System.currentTimeMillis() - markerMillis) / 1000.0 + SECOND);
            List<double[]> positive = samples.stream().filter(s -> s[1] > 0).toList();
            assertThat(positive).as("several scrapes while applying: " + describe(samples)).hasSizeGreaterThan(3);
            for (int i = 1; i < positive.size(); i++) {
                double wall = positive.get(i)[0] - positive.get(i - 1)[0];
                assertThat(positive.get(i)[1]).as("lag rises no faster than the clock: " + describe(samples))
                    .isLessThanOrEqualTo(positive.get(i - 1)[1] + wall + SECOND + SLACK);
            }
            double[] firstPositive = positive.get(0);
            double[] lastPositive = positive.get(positive.size() - 1);
            assertThat(lastPositive[1]).as("lag fell: " + describe(samples)).isLessThan(firstPositive[1] - SECOND);
            // wall time minus lag is the commit time of the oldest transaction not applied yet: it moved
            // through the backlog (8 s of commits)
            assertThat((lastPositive[0] - lastPositive[1]) - (firstPositive[0] - firstPositive[1]))
                .as("the oldest pending transaction moved forward: " + describe(samples)).isGreaterThan(4.0);

            health = endpoint.awaitState("caught_up", run, 30);
            // 20 s of an idle source: 20 heartbeat periods, each a chance for the lag to drift from 0
            for (int i = 0; i < 20; i++) {
                String scrape = endpoint.scrape();
                assertThat(Endpoint.lag(scrape)).as("idle source, second " + i).isZero();
                assertThat(scrape).contains("binlog_applier_state{state=\"caught_up\",target=\"lag\"} 1.0");
                Thread.sleep(1_000);
            }
            health = endpoint.health();
            String scrape = endpoint.scrape();
            assertThat(scrape).contains("binlog_applier_transactions_applied_total{target=\"lag\"} "
                + (backlog.transactions + ".0"));
            run.terminate();
            assertThat(run.await(60).exitCode()).isZero();
        }
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "lagdb");
        String[] end = TestApplier.currentPosition(SERVERS.source()).split(":");
        assertThat(health)
            .startsWith("{\"name\":\"lag\",\"state\":\"caught_up\",\"reconnecting\":null,\"lag_seconds\":0.000,")
            .contains("\"applied\":{\"file\":\"" + end[0] + "\",\"offset\":" + end[1] + ",\"gtid\":\""
                + SERVERS.source().queryString("SELECT @@gtid_binlog_pos") + "\",\"source_commit_time\":\"")
            .contains("\"source\":{\"file\":\"" + end[0] + "\",\"offset\":" + end[1] + "}")
            .contains("\"received\":{\"file\":\"" + end[0] + "\",\"offset\":" + end[1] + "}")
            .contains("\"transactions_applied\":" + backlog.transactions + ",")
            .contains("\"last_error\":null");
    }

    @Test
    void afterASigkillTheFirstScrapeOfTheRestartShowsTheBacklogsAge() throws Exception {
        String start = prepare("killdb");
        Endpoint endpoint = new Endpoint(Endpoint.freePort());
        Path cfg = config(endpoint, "kill", start);
        long markerMillis;
        try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            endpoint.awaitState("caught_up", run, 60);
            markerMillis = marker("killdb");
            awaitApplied("kill", "killdb", run);
            assertThat(run.kill()).isEqualTo(137);
        }
        Load backlog = load("killdb", 2_000, 300);
        Thread.sleep(3_000);

        try (CliRun run = CliRun.start("run", "--config", cfg.toString())) {
            long before = System.currentTimeMillis();
            String first = endpoint.firstScrape(run, 60);
            long after = System.currentTimeMillis();
            double lag = Endpoint.lag(first);
            System.out.println("first scrape after SIGKILL: lag " + lag + " s; backlog started "
                + (after - backlog.startMillis) / 1000.0 + " s and the last applied transaction committed "
                + (after - markerMillis) / 1000.0 + " s before it");
            assertThat(lag).as("no older than the last applied transaction, no younger than the backlog")
                .isGreaterThanOrEqualTo((before - backlog.startMillis) / 1000.0 - SLACK)
                .isLessThanOrEqualTo((after - markerMillis) / 1000.0 + SECOND);
            endpoint.awaitState("caught_up", run, 120);
            run.terminate();
            assertThat(run.await(60).exitCode()).isZero();
        }
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "killdb");
    }

    @Test
    void listenOffStartsNoServerAndListenOnAPortStartsOne() throws Exception {
        String start = prepare("offdb");
        Endpoint endpoint = new Endpoint(Endpoint.freePort());
        String off = TestApplier.yaml(SERVERS.servers(), "off", start, "conservative", 1, null);

        try (CliRun run = CliRun.start("run", "--config", Configs.write(off).toString())) {
            awaitOutput(run, "connecting to source");
            Thread.sleep(500);
            assertThat(Endpoint.listeningPorts(run.pid())).as(run.output()).isEmpty();
            assertThat(endpoint.get("/health")).isNull();
            run.terminate();
            assertThat(run.await(60).exitCode()).isZero();
        }
        try (CliRun run = CliRun.start("run", "--config", Configs.write(endpoint.enable(off)).toString())) {
            awaitOutput(run, "connecting to source");
            assertThat(Endpoint.listeningPorts(run.pid())).containsExactly(endpoint.port());
            Endpoint.Reply notFound = endpoint.get("/nothing");
            assertThat(notFound.status()).isEqualTo(404);
            run.terminate();
            assertThat(run.await(60).exitCode()).isZero();
        }
    }

    @Test
    void aPortInUseIsOneLineWithItsOwnExitCodeAndABadListenValueIsAConfigError() throws Exception {
        String start = prepare("portdb");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Endpoint endpoint = new Endpoint(taken.getLocalPort());
            CliRun.Result r = CliRun.run(60, "run", "--config", config(endpoint, "port", start).toString(),
                "--until", "current");

            assertThat(r.exitCode()).as(r.output()).isEqualTo(ExitCode.METRICS_LISTEN.code());
            assertThat(r.lastLine()).as(r.output())
                .contains("cannot listen for metrics on 127.0.0.1:" + taken.getLocalPort())
                .contains("give each applier its own metrics.listen").contains("[exit 50]");
            assertThat(r.output()).doesNotContain("\tat ").doesNotContain("connecting to source");
        }
        assertThat(SERVERS.target().queryString("SELECT COUNT(*) FROM binlog_applier.applier_position"
            + " WHERE stream = 'port'")).as("nothing was started").isEqualTo("0");

        String bad = TestApplier.yaml(SERVERS.servers(), "port", start, "conservative", 1, null)
            .replace("  listen: off\n", "  listen: 9104\n");
        CliRun.Result r = CliRun.run(60, "run", "--config", Configs.write(bad).toString());
        assertThat(r.exitCode()).as(r.output()).isEqualTo(ExitCode.CONFIG.code());
        assertThat(r.lastLine()).contains("metrics.listen: must be host:port such as 127.0.0.1:9104").contains("[exit 3]");
    }

    // ---- helpers

    private record Load(long startMillis, long endMillis, int transactions) {
        double seconds() {
            return (endMillis - startMillis) / 1000.0;
        }
    }

    /** A schema with one table on both servers; returns the source position after it. */
    private static String prepare(String db) {
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "DROP DATABASE IF EXISTS " + db, "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id BIGINT AUTO_INCREMENT PRIMARY KEY, pad VARCHAR(200) NOT NULL)");
        }
        return TestApplier.currentPosition(SERVERS.source());
    }

    private static Path config(Endpoint endpoint, String name, String start) {
        return Configs.write(endpoint.enable(TestApplier.yaml(SERVERS.servers(), name, start, "conservative", 1, null)));
    }

    /** One transaction on the source; returns when it committed (our clock). */
    private static long marker(String db) {
        SERVERS.source().execute("INSERT INTO " + db + ".t (pad) VALUES ('marker')");
        return System.currentTimeMillis();
    }

    private static void awaitApplied(String stream, String db, CliRun run) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            if (SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t") == SERVERS.source().queryLong(
                "SELECT COUNT(*) FROM " + db + ".t") && TestApplier.currentPosition(SERVERS.source()).equals(
                SERVERS.target().queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
                    + " binlog_applier.applier_position WHERE stream = '" + stream + "'"))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not applied in 30 s:\n" + run.output());
    }

    /**
     * Transactions of 10 rows on the source for {@code millis}, at most {@code perSecond}: slower than
     * one worker applies them even on a busy machine, so that the lag falls while they are applied.
     */
    private static Load load(String db, long millis, int perSecond) throws SQLException, InterruptedException {
        try (Connection c = SERVERS.source().connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + db + ".t (pad) VALUES (?), (?), (?), (?), (?),"
                 + " (?), (?), (?), (?), (?)")) {
            long start = System.currentTimeMillis();
            long end = start + millis;
            int n = 0;
            while (System.currentTimeMillis() < end) {
                for (int i = 1; i <= 10; i++) {
                    ps.setString(i, "row " + n + "." + i + " ".repeat(150));
                }
                ps.executeUpdate();
                n++;
                long due = start + n * 1000L / perSecond;
                long now = System.currentTimeMillis();
                if (due > now) {
                    Thread.sleep(due - now);
                }
            }
            return new Load(start, System.currentTimeMillis(), n);
        }
    }

    private static void awaitOutput(CliRun run, String text) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            if (run.output().contains(text)) {
                return;
            }
            if (!run.alive()) {
                break;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no '" + text + "' in the output:\n" + run.output());
    }

    private static String describe(List<double[]> samples) {
        StringBuilder b = new StringBuilder();
        for (double[] s : samples) {
            b.append(String.format(java.util.Locale.ROOT, " %.1f:%.2f", s[0], s[1]));
        }
        return b.toString();
    }
}
