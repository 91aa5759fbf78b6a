package io.binlogapplier.server.metrics;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.errors.Side;
import io.binlogapplier.pipeline.ApplierStatus;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class HealthJsonTest {
    private static final Instant NOW = Instant.parse("2026-01-05T10:00:00Z");
    private final ApplierStatus status = new ApplierStatus(Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void beforeAnythingIsKnownTheValuesAreNull() {
        assertThat(HealthJson.of("orders", status)).isEqualTo("{\"name\":\"orders\",\"state\":\"starting\",\"reconnecting\":null,"
            + "\"lag_seconds\":null,\"applied\":null,\"source\":null,\"received\":null,\"transactions_applied\":0,"
            + "\"workers_busy\":0,\"flush_relaxed\":false,\"apply_method\":null,\"apply_method_configured\":null,"
            + "\"source_encrypted\":null,\"source_tls\":null,\"target_encrypted\":null,\"target_tls\":null,"
            + "\"last_error\":null,\"last_error_at\":null}");
    }

    @Test
    void whileReconnectingTheLostSideAndTheAttemptAreShown() {
        status.positionLoaded(new SourcePosition(new BinlogCoordinates("mysql-bin.000042", 1337), "0-1-100",
            SourcePosition.ResumeBy.FILE), NOW.minusMillis(2500).toEpochMilli() * 1000);
        status.reconnecting(Side.TARGET, 4, "cannot reach the target");

        assertThat(HealthJson.of("orders", status)).startsWith("{\"name\":\"orders\",\"state\":\"reconnecting\","
            + "\"reconnecting\":{\"side\":\"target\",\"attempt\":4},").contains(
            "\"last_error\":\"cannot reach the target\"");
    }

    @Test
    void statePositionsLagTheMethodAutoChoseAndTheLastErrorEscaped() {
        status.positionLoaded(new SourcePosition(new BinlogCoordinates("mysql-bin.000042", 1337), "0-1-100",
            SourcePosition.ResumeBy.FILE), NOW.minusMillis(2500).toEpochMilli() * 1000);
        status.sourceEnd(new BinlogCoordinates("mysql-bin.000042", 9000));
        status.flushRelaxed(true);
        status.tls(io.binlogapplier.errors.Side.SOURCE, "TLSv1.3 TLS_AES_256_GCM_SHA384");
        status.tls(io.binlogapplier.errors.Side.TARGET, "");
        status.applyMethod(new MethodChoice(ApplyMethod.SQL, true, "the target user 'u' lacks BINLOG REPLAY",
            "GRANT BINLOG REPLAY ON *.* TO 'u' to use the faster binlog method", true));
        status.failed(new ApplierException(ExitCode.TARGET_DATA_CONFLICT, "row \"7\" missing\tin `db`.`t`"));

        assertThat(HealthJson.of("orders", status)).isEqualTo("{\"name\":\"orders\",\"state\":\"failed\",\"reconnecting\":null,"
            + "\"lag_seconds\":2.500,\"applied\":{\"file\":\"mysql-bin.000042\",\"offset\":1337,\"gtid\":\"0-1-100\","
            + "\"source_commit_time\":\"2026-01-05T09:59:57.500Z\"},"
            + "\"source\":{\"file\":\"mysql-bin.000042\",\"offset\":9000},"
            + "\"received\":{\"file\":\"mysql-bin.000042\",\"offset\":1337},\"transactions_applied\":0,"
            + "\"workers_busy\":0,\"flush_relaxed\":true,\"apply_method\":\"sql\",\"apply_method_configured\":\"auto\","
            + "\"source_encrypted\":true,\"source_tls\":\"TLSv1.3 TLS_AES_256_GCM_SHA384\",\"target_encrypted\":false,"
            + "\"target_tls\":null,"
            + "\"last_error\":\"row \\\"7\\\" missing\\tin `db`.`t`\","
            + "\"last_error_at\":\"2026-01-05T10:00:00Z\"}");
    }
}
