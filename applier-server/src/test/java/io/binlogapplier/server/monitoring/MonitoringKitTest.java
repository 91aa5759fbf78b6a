package io.binlogapplier.server.monitoring;

import io.binlogapplier.pipeline.ApplierStatus;
import io.binlogapplier.server.metrics.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * monitoring/ checked without a running applier: promtool accepts the rules and their unit tests
 * pass (each alert fires when it should and stays quiet when it should not), every dashboard panel
 * has a query per target, and every metric the dashboard and the rules name is one the applier's
 * registry exports. MonitoringIT runs the same files against a real Prometheus and applier.
 */
class MonitoringKitTest {

    @Test
    void promtoolAcceptsTheRulesAndTheScrapeConfig() {
        MonitoringKit.Run rules = MonitoringKit.run(List.of(MonitoringKit.tool("promtool"), "check", "rules",
            MonitoringKit.ALERTS.toString()));
        assertThat(rules.exitCode()).as(rules.output()).isZero();
        assertThat(rules.output()).contains("SUCCESS: 11 rules found");
        // check config would also read the rule file it names (next to it once installed): check the syntax only
        MonitoringKit.Run config = MonitoringKit.run(List.of(MonitoringKit.tool("promtool"), "check", "config",
            "--syntax-only", MonitoringKit.SCRAPE_CONFIG.toString()));
        assertThat(config.exitCode()).as(config.output()).isZero();
    }

    @Test
    void everyAlertFiresWhenItShouldAndStaysQuietWhenItShouldNot() {
        MonitoringKit.Run tests = MonitoringKit.run(List.of(MonitoringKit.tool("promtool"), "test", "rules",
            MonitoringKit.ALERT_TESTS.toString()));
        assertThat(tests.exitCode()).as(tests.output()).isZero();
        assertThat(tests.output()).contains("SUCCESS");
        String testFile = MonitoringKit.read(MonitoringKit.ALERT_TESTS);
        for (MonitoringKit.Rule r : MonitoringKit.rules()) {
            assertThat(testFile).as("a unit test for " + r.alert()).contains("alertname: " + r.alert());
        }
    }

    @Test
    void everyPanelQueriesPerTargetAndTheRulesSelectTheScrapeJob() {
        List<String> queries = MonitoringKit.dashboardQueries();
        assertThat(queries).hasSizeGreaterThan(20).allSatisfy(q -> assertThat(q).contains("target=~\"$target\""));
        for (MonitoringKit.Rule r : MonitoringKit.rules()) {
            assertThat(r.expr()).as(r.alert()).contains("job=\"binlog-applier\"");
        }
        assertThat(MonitoringKit.read(MonitoringKit.SCRAPE_CONFIG)).contains("job_name: binlog-applier");
    }

    @Test
    void everyMetricTheDashboardAndTheRulesNameIsExported() throws InterruptedException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new MicrometerMetrics(registry, "kit", new ApplierStatus(Clock.systemUTC()), "test");
        io.binlogapplier.server.metrics.MetricsServerAccess.bindJvmMeters(registry, "kit");
        // jvm_gc_pause_seconds appears with the first collection after the binder is bound
        Set<String> exported = new TreeSet<>();
        for (int i = 0; i < 50 && !exported.contains("jvm_gc_pause_seconds_count"); i++) {
            System.gc();
            Thread.sleep(100);
            exported = MonitoringKit.exported(registry.scrape());
        }
        exported.add("up"); // Prometheus' own, per scrape target
        Set<String> used = MonitoringKit.metricNamesUsed();

        assertThat(used).contains("binlog_applier_lag_seconds", "binlog_applier_bytes_behind", "jvm_memory_used_bytes",
            "binlog_applier_flush_relaxed", "up");
        assertThat(exported).containsAll(used);
    }

    @Test
    void metricNamesAreFoundInQueriesButNotLabelsOrFunctions() {
        assertThat(MonitoringKit.metricNames("sum by (target) (rate(binlog_applier_retries_total{job=\"x\",target=~\"$target\"}[5m]))"
            + " unless on (job, instance) up{job=\"binlog-applier\"} == 1 and jvm_memory_used_bytes{area=\"heap\"}"))
            .containsExactly("binlog_applier_retries_total", "jvm_memory_used_bytes", "up");
    }
}
