package io.binlogapplier.server.metrics;

import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.pipeline.ApplierStatus;
import io.binlogapplier.pipeline.PipelineProbe;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MicrometerMetricsTest {
    private static final Instant NOW = Instant.parse("2026-01-05T10:00:00Z");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ApplierStatus status = new ApplierStatus(Clock.fixed(NOW, ZoneOffset.UTC));
    private final MicrometerMetrics metrics = new MicrometerMetrics(registry, "orders-replica", status);

    @Test
    void everyMeterHasTheTargetTagADescriptionAndThePrefix() {
        assertThat(registry.getMeters()).hasSizeGreaterThan(20);
        for (Meter m : registry.getMeters()) {
            assertThat(m.getId().getTag("target")).as(m.getId().toString()).isEqualTo("orders-replica");
            assertThat(m.getId().getDescription()).as(m.getId().toString()).isNotBlank();
            assertThat(m.getId().getName()).startsWith("binlog_applier.");
        }
        for (String line : registry.scrape().split("\n")) {
            if (!line.startsWith("#") && !line.isBlank()) {
                assertThat(line).startsWith("binlog_applier_").contains("target=\"orders-replica\"");
            }
        }
    }

    @Test
    void theScrapeListsTheDocumentedMeters() {
        status.positionLoaded(new SourcePosition(new BinlogCoordinates("mysql-bin.000042", 1337), "0-1-100",
            SourcePosition.ResumeBy.FILE), NOW.minusSeconds(7).toEpochMilli() * 1000);
        status.sourceEnd(new BinlogCoordinates("mysql-bin.000043", 400));
        metrics.unitCommitted(3, 30, 3000);
        metrics.unitCommitted(1, 10, 1000);
        metrics.retried("deadlock");
        metrics.conflict("lock_wait");
        metrics.error("source_lost");
        metrics.barrier("ddl");
        metrics.netEffect(500, 4, 0);
        metrics.netEffect(100, 2, 30);
        metrics.tailApplied(3);
        metrics.tailApplied(2);
        metrics.tableContended();
        metrics.leanImages(4096, 1024);
        metrics.leanImages(0, 0);
        metrics.linkedRows(90, 12);
        metrics.linkedRows(0, 0);
        metrics.readAhead("read", 120, 4);
        metrics.readAhead("late", 7, 0);
        status.applyMethod(new MethodChoice(ApplyMethod.BINLOG, true, "the target may run BINLOG statements",
            "set apply.method: sql to use the sql method instead", false));
        metrics.refresh();

        String scrape = registry.scrape();

        List<String> names = Arrays.stream(scrape.split("\n")).filter(l -> l.startsWith("# HELP "))
            .map(l -> l.split(" ")[2]).sorted().toList();
        System.out.println(String.join("\n", names));
        assertThat(names).contains("binlog_applier_lag_seconds", "binlog_applier_transactions_received_total",
            "binlog_applier_rows_received_total", "binlog_applier_received_bytes_total",
            "binlog_applier_transactions_applied_total", "binlog_applier_rows_applied_total",
            "binlog_applier_applied_bytes_total", "binlog_applier_units_committed_total",
            "binlog_applier_unit_transactions", "binlog_applier_unit_bytes", "binlog_applier_ring_entries",
            "binlog_applier_ring_bytes", "binlog_applier_workers_busy", "binlog_applier_workers_active",
            "binlog_applier_retries_total",
            "binlog_applier_conflicts_total", "binlog_applier_errors_total",
            "binlog_applier_source_binlog_file_index", "binlog_applier_source_binlog_offset",
            "binlog_applier_applied_binlog_file_index", "binlog_applier_applied_binlog_offset",
            "binlog_applier_applied_source_commit_timestamp_seconds", "binlog_applier_flush_relaxed",
            "binlog_applier_state", "binlog_applier_barriers_total", "binlog_applier_net_effect_rows_total",
            "binlog_applier_net_effect_statements_total", "binlog_applier_ordered_rows_total",
            "binlog_applier_linked_rows_total", "binlog_applier_linked_statements_total",
            "binlog_applier_tail_transactions_total", "binlog_applier_contended_tables_total",
            "binlog_applier_before_image_dropped_bytes_total", "binlog_applier_after_image_dropped_bytes_total",
            "binlog_applier_apply_method", "binlog_applier_read_ahead_rows_total",
            "binlog_applier_read_ahead_statements_total");
        assertThat(scrape)
            .contains("binlog_applier_lag_seconds{target=\"orders-replica\"} 7.0")
            .contains("binlog_applier_transactions_applied_total{target=\"orders-replica\"} 4.0")
            .contains("binlog_applier_unit_transactions_count{target=\"orders-replica\"} 2")
            .contains("binlog_applier_unit_transactions_sum{target=\"orders-replica\"} 4.0")
            .contains("binlog_applier_unit_bytes_max{target=\"orders-replica\"} 3000.0")
            .contains("binlog_applier_retries_total{reason=\"deadlock\",target=\"orders-replica\"} 1.0")
            .contains("binlog_applier_retries_total{reason=\"preempted\",target=\"orders-replica\"} 0.0")
            .contains("binlog_applier_conflicts_total{reason=\"lock_wait\",target=\"orders-replica\"} 1.0")
            .contains("binlog_applier_errors_total{kind=\"source_lost\",target=\"orders-replica\"} 1.0")
            .contains("binlog_applier_applied_binlog_file_index{target=\"orders-replica\"} 42.0")
            .contains("binlog_applier_applied_binlog_offset{target=\"orders-replica\"} 1337.0")
            .contains("binlog_applier_source_binlog_file_index{target=\"orders-replica\"} 43.0")
            .contains("binlog_applier_source_binlog_offset{target=\"orders-replica\"} 400.0")
            .contains("file=\"mysql-bin.000042\",of=\"applied\",target=\"orders-replica\"} 1")
            .contains("file=\"mysql-bin.000043\",of=\"source\",target=\"orders-replica\"} 1")
            .contains("binlog_applier_state{state=\"starting\",target=\"orders-replica\"} 1.0")
            .contains("binlog_applier_state{state=\"applying\",target=\"orders-replica\"} 0.0")
            .contains("binlog_applier_flush_relaxed{target=\"orders-replica\"} 0.0")
            .contains("binlog_applier_barriers_total{cause=\"ddl\",target=\"orders-replica\"} 1.0")
            .contains("binlog_applier_barriers_total{cause=\"statement_dml\",target=\"orders-replica\"} 0.0")
            .contains("binlog_applier_net_effect_rows_total{target=\"orders-replica\"} 600.0")
            .contains("binlog_applier_net_effect_statements_total{target=\"orders-replica\"} 6.0")
            .contains("binlog_applier_ordered_rows_total{target=\"orders-replica\"} 30.0")
            .contains("binlog_applier_linked_rows_total{target=\"orders-replica\"} 90.0")
            .contains("binlog_applier_linked_statements_total{target=\"orders-replica\"} 12.0")
            .contains("binlog_applier_tail_transactions_total{target=\"orders-replica\"} 5.0")
            .contains("binlog_applier_contended_tables_total{target=\"orders-replica\"} 1.0")
            .contains("binlog_applier_before_image_dropped_bytes_total{target=\"orders-replica\"} 4096.0")
            .contains("binlog_applier_after_image_dropped_bytes_total{target=\"orders-replica\"} 1024.0")
            .contains("binlog_applier_read_ahead_rows_total{outcome=\"read\",target=\"orders-replica\"} 120.0")
            .contains("binlog_applier_read_ahead_rows_total{outcome=\"late\",target=\"orders-replica\"} 7.0")
            .contains("binlog_applier_read_ahead_statements_total{target=\"orders-replica\"} 4.0")
            .contains("binlog_applier_apply_method{configured=\"auto\",method=\"binlog\",target=\"orders-replica\"} 1.0")
            .contains("binlog_applier_apply_method{configured=\"binlog\",method=\"binlog\",target=\"orders-replica\"} 0.0")
            .contains("binlog_applier_apply_method{configured=\"auto\",method=\"sql\",target=\"orders-replica\"} 0.0");
    }

    @Test
    void anUnknownLagIsNaN() {
        assertThat(registry.scrape()).contains("binlog_applier_lag_seconds{target=\"orders-replica\"} NaN");
    }
}
