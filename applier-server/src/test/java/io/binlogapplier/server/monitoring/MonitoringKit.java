package io.binlogapplier.server.monitoring;

import io.binlogapplier.server.Json;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The files of monitoring/ as the tests read them: the dashboard's queries, the alert rules, promtool. */
public final class MonitoringKit {
    public static final Path DIR = Path.of("..", "monitoring");
    public static final Path DASHBOARD = DIR.resolve("grafana-dashboard.json");
    public static final Path ALERTS = DIR.resolve("alerts.yml");
    public static final Path ALERT_TESTS = DIR.resolve("alerts.test.yml");
    public static final Path SCRAPE_CONFIG = DIR.resolve("prometheus.yml");

    /** Names of metrics in a PromQL expression: the applier's, the JVM's and process's, and up. */
    private static final Pattern METRIC = Pattern.compile(
        "(?<![\\w\"$])(binlog_applier_\\w+|jvm_\\w+|process_\\w+|system_\\w+|up)(?=\\s*[{\\[)]|\\s|$)");

    private MonitoringKit() {
    }

    public record Rule(String alert, String expr) {
    }

    public static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every panel query of the dashboard, as written (with $target and $__rate_interval). */
    @SuppressWarnings("unchecked")
    public static List<String> dashboardQueries() {
        Map<String, Object> dashboard = Json.object(read(DASHBOARD));
        List<String> out = new ArrayList<>();
        for (Object p : (List<Object>) dashboard.get("panels")) {
            Map<String, Object> panel = (Map<String, Object>) p;
            if (panel.get("targets") == null) {
                continue; // a row
            }
            for (Object t : (List<Object>) panel.get("targets")) {
                out.add((String) ((Map<String, Object>) t).get("expr"));
            }
        }
        return out;
    }

    /** The dashboard query as Prometheus gets it from Grafana for one target and a 1-minute rate window. */
    public static String forTarget(String query, String target) {
        return query.replace("$target", target).replace("$__rate_interval", "1m");
    }

    @SuppressWarnings("unchecked")
    public static List<Rule> rules() {
        Map<String, Object> file = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(read(ALERTS));
        List<Rule> out = new ArrayList<>();
        for (Object g : (List<Object>) file.get("groups")) {
            for (Object r : (List<Object>) ((Map<String, Object>) g).get("rules")) {
                Map<String, Object> rule = (Map<String, Object>) r;
                out.add(new Rule((String) rule.get("alert"), rule.get("expr").toString().trim()));
            }
        }
        return out;
    }

    public static Set<String> metricNames(String expr) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(expr);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** Every metric name the dashboard and the rules use. */
    public static Set<String> metricNamesUsed() {
        Set<String> names = new TreeSet<>();
        dashboardQueries().forEach(q -> names.addAll(metricNames(q)));
        rules().forEach(r -> names.addAll(metricNames(r.expr())));
        return names;
    }

    /** The metric names of a Prometheus text-format scrape. */
    public static Set<String> exported(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }

    /** The path of a Prometheus tool (promtool, prometheus); fails naming how to install it. */
    public static String tool(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name).toString();
            }
        }
        throw new AssertionError(name + " is not installed: run scripts/setup.sh (apt-get install prometheus)");
    }

    public record Run(int exitCode, String output) {
    }

    public static Run run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(command + " did not finish in 60 s");
            }
            return new Run(p.exitValue(), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
