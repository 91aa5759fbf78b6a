package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.server.monitoring.MonitoringKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * monitoring/ against the real thing: a Prometheus scrapes an applier (in its own JVM, logging JSON,
 * a progress line every second) through a catch-up; then every dashboard query and every alert rule's
 * metrics return data through Prometheus' HTTP API, and every metric they name is in the scrape.
 * Also: every log line of a run, its errors and progress lines included, parses as JSON; and
 * {@code status --json} prints parseable JSON on stdout (error on stderr) while the target is unreachable.
 */
class MonitoringIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final String LOG_JSON = "log:\n  format: json\n  progress_interval: 1s\n";

    @Test
    void prometheusScrapingACatchUpHasDataForEveryPanelAndAlertRuleAndEveryLogLineIsJson() throws Exception {
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "DROP DATABASE IF EXISTS mondb", "CREATE DATABASE mondb",
                "CREATE TABLE mondb.t (id BIGINT AUTO_INCREMENT PRIMARY KEY, pad VARCHAR(200) NOT NULL)",
                "CREATE TABLE mondb.skipped (id BIGINT AUTO_INCREMENT PRIMARY KEY, pad VARCHAR(200) NOT NULL)");
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        int transactions = backlog(4_000);

        Endpoint endpoint = new Endpoint(Endpoint.freePort());
        // One transaction per unit, row by row: a catch-up of several seconds for the scrapes to watch.
        String yaml = endpoint.enable(TestApplier.yaml(SERVERS.servers(), "mon", start, "conservative", 1,
            "  method: sql\n  unit_max_transactions: 1\n  net_effect: false\n"))
            + "filter:\n  exclude: [\"mondb.skipped\"]\n" + LOG_JSON;
        Path cfg = Configs.write(yaml);
        // The target's table locked: the applier stays behind (bytes behind, progress lines) until the test
        // has seen it so, however fast this machine would otherwise catch up.
        try (Connection lock = SERVERS.target().connect();
             Prometheus prometheus = Prometheus.scraping(endpoint.port());
             CliRun run = lockThenRun(lock, cfg)) {
            run.awaitThat("behind, as Prometheus and the log see it", 120,
                () -> !prometheus.query("binlog_applier_bytes_behind{target=\"mon\"} > 0").isEmpty()
                    && run.output().contains("progress: applied"), prometheus::log);
            try (Statement st = lock.createStatement()) {
                st.execute("UNLOCK TABLES");
            }
            endpoint.awaitState("caught_up", run, 180);
            // The GC meters appear with the first collection; make sure there was one.
            MonitoringKit.Run gc = MonitoringKit.run(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd")
                .toString(), Long.toString(run.pid()), "GC.run"));
            assertThat(gc.exitCode()).as(gc.output()).isZero();
            Thread.sleep(3_000);

            Map<String, String> missing = new LinkedHashMap<>();
            for (int attempt = 0; attempt < 30; attempt++) {
                missing.clear();
                for (String q : MonitoringKit.dashboardQueries()) {
                    String query = MonitoringKit.forTarget(q, "mon");
                    if (prometheus.query(query).isEmpty()) {
                        missing.put("panel query " + query, "no data");
                    }
                }
                for (MonitoringKit.Rule r : MonitoringKit.rules()) {
                    for (String metric : MonitoringKit.metricNames(r.expr())) {
                        if (prometheus.query(metric + "{job=\"binlog-applier\"}").isEmpty()) {
                            missing.put(r.alert() + ": " + metric, "no data");
                        }
                    }
                    // the rule's expression without its thresholds, absent() and unless: the same arithmetic
                    String probe = probe(r.expr());
                    if (prometheus.query(probe).isEmpty()) {
                        missing.put(r.alert() + ": " + probe, "no data");
                    }
                }
                if (missing.isEmpty()) {
                    break;
                }
                Thread.sleep(1_000);
            }
            assertThat(missing).as("queries without data; prometheus log:\n" + prometheus.log()).isEmpty();

            String scrape = endpoint.scrape();
            Set<String> exported = MonitoringKit.exported(scrape);
            exported.add("up");
            assertThat(exported).containsAll(MonitoringKit.metricNamesUsed());
            assertThat(scrape).contains("binlog_applier_build_info{java=\"").contains("binlog_applier_bytes_behind{target=\"mon\"} 0.0")
                .contains("binlog_applier_binlog_file_info{file=\"").contains("process_uptime_seconds{target=\"mon\"}");
            assertThat(Endpoint.metric(scrape, "binlog_applier_filtered_row_events_total")).as(scrape).isEqualTo(200.0);
            assertThat(Endpoint.metric(scrape, "binlog_applier_transactions_applied_total")).isEqualTo(transactions);
            // the catch-up as Prometheus saw it: bytes behind above zero at some point, and zero now
            assertThat(prometheus.query("max_over_time(binlog_applier_bytes_behind{target=\"mon\"}[5m]) > 0"))
                .as("bytes behind seen while catching up").isNotEmpty();
            assertThat(prometheus.query("binlog_applier_bytes_behind{target=\"mon\"} == 0")).isNotEmpty();

            run.terminate();
            CliRun.Result done = run.await(60);
            assertThat(done.exitCode()).as(done.output()).isZero();
            List<Map<String, Object>> lines = jsonLines(done.output());
            lines.stream().filter(l -> l.get("message").toString().startsWith("progress:"))
                .forEach(l -> System.out.println("progress line seen: " + l));
            assertThat(lines).anySatisfy(l -> assertThat(l.get("message").toString())
                .matches("progress: applied \\d+ transactions/s \\(\\d+ in \\d+ s\\), lag .*, .* behind, .*"));
            assertThat(lines).anySatisfy(l -> assertThat(l.get("message").toString()).startsWith("applied "));
        }
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM mondb.skipped")).as("left out by the filter").isZero();
        SERVERS.source().execute("SET SESSION sql_log_bin = 0", "DELETE FROM mondb.skipped");
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "mondb");

        // An error, as JSON too: the target's port has nothing listening.
        String unreachable = yaml.replace("  port: " + SERVERS.target().port() + "\n", "  port: " + Endpoint.freePort()
            + "\n").replace("  listen: \"127.0.0.1:" + endpoint.port() + "\"\n", "  listen: off\n");
        CliRun.Result failed = CliRun.run(60, "run", "--config", Configs.write(unreachable).toString());
        assertThat(failed.exitCode()).as(failed.output()).isEqualTo(ExitCode.TARGET_UNREACHABLE.code());
        List<Map<String, Object>> errorLines = jsonLines(failed.output());
        assertThat(errorLines.get(errorLines.size() - 1)).containsEntry("level", "ERROR");
        assertThat(errorLines.get(errorLines.size() - 1).get("message").toString()).endsWith("[exit 20]");
    }

    @Test
    void statusJsonIsOneJsonObjectOnStdoutWhileTheTargetIsUnreachableAndJqReadsIt() throws Exception {
        String start = TestApplier.currentPosition(SERVERS.source());
        String yaml = TestApplier.yaml(SERVERS.servers(), "stjson", start, "conservative", 1, null)
            .replace("  port: " + SERVERS.target().port() + "\n", "  port: " + Endpoint.freePort() + "\n");
        Path cfg = Configs.write(yaml);
        Path out = Files.createTempFile("status-", ".out");
        Path err = Files.createTempFile("status-", ".err");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
            CliRun.jar().toString(), "status", "--config", cfg.toString(), "--json");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);

        assertThat(p.exitValue()).as(stdout + stderr).isEqualTo(ExitCode.TARGET_UNREACHABLE.code());
        Map<String, Object> status = Json.object(stdout.strip());
        assertThat(status).containsEntry("name", "stjson").containsEntry("exit_code", 20.0);
        assertThat(status.get("error").toString()).contains("target");
        assertThat(stderr.strip()).as("the error line on stderr").endsWith("[exit 20]").contains("ERROR");

        // the same through a shell pipe into jq, as an operator runs it
        MonitoringKit.Run jq = MonitoringKit.run(List.of("bash", "-c", String.join(" ", cmd.stream()
            .map(a -> "'" + a + "'").toList()) + " 2>/dev/null | jq -e .exit_code"));
        assertThat(jq.exitCode()).as(jq.output()).isZero();
        assertThat(jq.output().strip()).isEqualTo("20");
    }

    /** Locks mondb.t on the target on {@code lock}, then starts the applier. */
    private static CliRun lockThenRun(Connection lock, Path cfg) throws SQLException {
        try (Statement st = lock.createStatement()) {
            st.execute("LOCK TABLES mondb.t WRITE");
        }
        return CliRun.start("run", "--config", cfg.toString());
    }

    /** Every line of {@code output} parsed as a JSON object with the documented fields. */
    private static List<Map<String, Object>> jsonLines(String output) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> o = Json.object(line);
            assertThat(o).as(line).containsKeys("ts", "level", "logger", "thread", "message");
            out.add(o);
        }
        assertThat(out).isNotEmpty();
        return out;
    }

    /** The rule's expression with its thresholds, absent() and unless taken out: data wherever its inputs have data. */
    static String probe(String expr) {
        // "m != m" (true only for NaN, an unknown lag): the series itself
        String p = expr.replaceAll("^(\\S+) != \\1$", "$1");
        p = p.replaceAll("\\s*(==|!=|>=|<=|>|<)\\s*-?[0-9.]+(e[0-9]+)?", "");
        p = p.replaceAll("^absent\\((.*)\\)$", "$1");
        return p.replace(" unless ", " or ");
    }

    /** Source transactions: {@code n} of 10 rows into mondb.t, and 200 of one row into the left-out mondb.skipped. */
    private static int backlog(int n) throws Exception {
        try (Connection c = SERVERS.source().connect();
             PreparedStatement t = c.prepareStatement("INSERT INTO mondb.t (pad) VALUES (?), (?), (?), (?), (?), (?), (?),"
                 + " (?), (?), (?)");
             PreparedStatement skipped = c.prepareStatement("INSERT INTO mondb.skipped (pad) VALUES (?)")) {
            for (int i = 0; i < n; i++) {
                for (int k = 1; k <= 10; k++) {
                    t.setString(k, "row " + i + "." + k + " ".repeat(100));
                }
                t.executeUpdate();
                if (i % 20 == 0) {
                    skipped.setString(1, "left out " + i);
                    skipped.executeUpdate();
                }
            }
        }
        return n + n / 20;
    }
}
