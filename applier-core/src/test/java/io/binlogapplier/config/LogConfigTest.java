package io.binlogapplier.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LogConfigTest {
    private static final String BASE = """
        source: {host: 127.0.0.1, user: repl, server_id: 4242}
        target: {host: 127.0.0.1, user: root}
        """;

    private static ApplierConfig parse(String extra) {
        return new ConfigLoader(k -> null).parse(BASE + extra, "test.yml", "orders");
    }

    @Test
    void withoutALogSectionItIsInfoTextAndAProgressLineEvery30Seconds() {
        assertThat(parse("").log()).isEqualTo(new LogConfig("info", Map.of(), LogConfig.LogFormat.TEXT,
            Duration.ofSeconds(30)));
    }

    @Test
    void levelIsOneLevelOrAMappingOfLoggerNamesWithRootForTheRest() {
        assertThat(parse("log: {level: DEBUG, format: json, progress_interval: 0}\n").log())
            .isEqualTo(new LogConfig("debug", Map.of(), LogConfig.LogFormat.JSON, Duration.ZERO));
        LogConfig perLogger = parse("log:\n  level: {root: warn, io.binlogapplier.pipeline: debug, com.zaxxer.hikari: info}\n")
            .log();
        assertThat(perLogger.level()).isEqualTo("warn");
        assertThat(perLogger.levels()).containsExactlyInAnyOrderEntriesOf(Map.of("io.binlogapplier.pipeline", "debug",
            "com.zaxxer.hikari", "info"));
    }

    @Test
    void badLevelsFormatsAndIntervalsAreReportedTogetherWithTheirKeys() {
        assertThatThrownBy(() -> parse("log: {level: loud, format: xml, progress_interval: 500ms, colour: true}\n"))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("log.level: must be one of trace, debug, info, warn, error, off")
            .hasMessageContaining("log.format: must be one of text, json")
            .hasMessageContaining("log.progress_interval: must be 0 (no progress line) or at least 1s")
            .hasMessageContaining("log.colour: unknown key");
        assertThatThrownBy(() -> parse("log: {level: {io.binlogapplier: chatty}}\n"))
            .hasMessageContaining("log.level.io.binlogapplier: must be one of");
    }
}
