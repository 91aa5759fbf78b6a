package io.binlogapplier.server.metrics;

import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.pipeline.ApplierStatus;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;

import java.time.Instant;
import java.util.Locale;

/**
 * The {@code /health} document: one JSON object, e.g.
 * <pre>
 * {"name":"orders-replica","state":"applying","lag_seconds":3.250,
 *  "applied":{"file":"mysql-bin.000042","offset":1337,"gtid":"0-1-100","source_commit_time":"2026-01-05T10:00:00Z"},
 *  "source":{"file":"mysql-bin.000042","offset":9000},"received":{"file":"mysql-bin.000042","offset":5000},
 *  "transactions_applied":1200,"workers_busy":2,"flush_relaxed":true,"apply_method":"binlog",
 *  "apply_method_configured":"auto","source_encrypted":true,"source_tls":"TLSv1.3 TLS_AES_256_GCM_SHA384",
 *  "target_encrypted":false,"target_tls":null,"last_error":null,"last_error_at":null}
 * </pre>
 * Unknown values are {@code null}. Pure.
 */
final class HealthJson {
    private HealthJson() {
    }

    static String of(String name, ApplierStatus s) {
        StringBuilder j = new StringBuilder(512).append('{');
        field(j, "name", name);
        field(j, "state", s.state().label());
        ApplierStatus.Reconnect r = s.reconnect();
        j.append(",\"reconnecting\":");
        if (r == null) {
            j.append("null");
        } else {
            j.append("{\"side\":\"").append(r.side().name().toLowerCase(Locale.ROOT)).append("\",\"attempt\":")
                .append(r.attempt()).append('}');
        }
        double lag = s.lagSeconds();
        j.append(",\"lag_seconds\":").append(Double.isNaN(lag) ? "null" : String.format(Locale.ROOT, "%.3f", lag));
        SourcePosition applied = s.appliedPosition();
        j.append(",\"applied\":");
        if (applied == null) {
            j.append("null");
        } else {
            j.append('{');
            position(j, applied.coordinates());
            field(j, "gtid", applied.gtids());
            long micros = s.appliedCommitMicros();
            field(j, "source_commit_time", micros <= 0 ? null
                : Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000).toString());
            j.append('}');
        }
        coordinates(j, "source", s.sourceEnd());
        coordinates(j, "received", s.readerPosition());
        j.append(",\"transactions_applied\":").append(s.appliedTransactions());
        j.append(",\"workers_busy\":").append(s.busyWorkers());
        j.append(",\"flush_relaxed\":").append(s.flushRelaxed());
        MethodChoice method = s.applyMethod();
        field(j, "apply_method", method == null ? null : method.methodName());
        field(j, "apply_method_configured", method == null ? null : method.auto() ? "auto" : method.methodName());
        for (io.binlogapplier.errors.Side side : io.binlogapplier.errors.Side.values()) {
            String tls = s.tls(side);
            String key = side.name().toLowerCase(Locale.ROOT);
            j.append(",\"").append(key).append("_encrypted\":").append(tls == null ? "null" : !tls.isEmpty());
            field(j, key + "_tls", tls == null || tls.isEmpty() ? null : tls);
        }
        field(j, "last_error", s.lastError());
        Instant at = s.lastErrorAt();
        field(j, "last_error_at", at == null ? null : at.toString());
        return j.append('}').toString();
    }

    private static void coordinates(StringBuilder j, String key, BinlogCoordinates at) {
        j.append(",\"").append(key).append("\":");
        if (at == null) {
            j.append("null");
            return;
        }
        j.append('{');
        position(j, at);
        j.append('}');
    }

    private static void position(StringBuilder j, BinlogCoordinates at) {
        field(j, "file", at.file());
        j.append(",\"offset\":").append(at.offset());
    }

    private static void field(StringBuilder j, String key, String value) {
        if (j.charAt(j.length() - 1) != '{') {
            j.append(',');
        }
        j.append('"').append(key).append("\":");
        if (value == null) {
            j.append("null");
            return;
        }
        j.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> j.append("\\\"");
                case '\\' -> j.append("\\\\");
                case '\n' -> j.append("\\n");
                case '\r' -> j.append("\\r");
                case '\t' -> j.append("\\t");
                default -> {
                    if (c < 0x20) {
                        j.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        j.append(c);
                    }
                }
            }
        }
        j.append('"');
    }
}
