package io.binlogapplier.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MetricsAndDurabilityConfigTest {
    private static final String BASE = """
        source: {host: 127.0.0.1, user: repl, server_id: 4242}
        target: {host: 127.0.0.1, user: root}
        """;

    private static ApplierConfig parse(String extra) {
        return new ConfigLoader(k -> null).parse(BASE + extra, "test.yml", "orders");
    }

    @Test
    void metricsListenOnLoopbackPort9104AndDurabilityIsRelaxedByDefault() {
        ApplierConfig c = parse("");

        assertThat(c.metrics()).isEqualTo(new MetricsConfig("127.0.0.1", 9104));
        assertThat(c.metrics().enabled()).isTrue();
        assertThat(c.durability()).isEqualTo(new DurabilityConfig(DurabilityMode.RELAXED, Duration.ofSeconds(10),
            Duration.ofMinutes(1)));
    }

    @Test
    void listenTakesHostAndPortIpv6EveryInterfaceOrOff() {
        assertThat(parse("metrics: {listen: \"0.0.0.0:9200\"}\n").metrics()).isEqualTo(new MetricsConfig("0.0.0.0", 9200));
        assertThat(parse("metrics: {listen: \"[::1]:9200\"}\n").metrics()).isEqualTo(new MetricsConfig("::1", 9200));
        assertThat(parse("metrics: {listen: \":9200\"}\n").metrics().listen()).isEqualTo(":9200");
        assertThat(parse("metrics: {listen: metrics.example.org:9200}\n").metrics().host())
            .isEqualTo("metrics.example.org");
        assertThat(parse("metrics: {listen: off}\n").metrics().enabled()).isFalse();
        assertThat(parse("metrics: {listen: false}\n").metrics()).isEqualTo(MetricsConfig.OFF);
    }

    @Test
    void aBadListenValueIsAConfigErrorWithItsKeyPath() {
        for (String bad : new String[] {"9104", "localhost", "localhost:99999", "localhost:0", "true", "a b:1",
            "{port: 1}"}) {
            assertThatThrownBy(() -> parse("metrics: {listen: " + bad + "}\n"))
                .as(bad).isInstanceOf(ConfigException.class)
                .hasMessageContaining("metrics.listen: must be");
        }
    }

    @Test
    void durabilityModesAndTheirTimes() {
        DurabilityConfig d = parse("durability: {mode: relaxed_while_lagging, lag_threshold: 30s, strict_after: 5m}\n")
            .durability();

        assertThat(d).isEqualTo(new DurabilityConfig(DurabilityMode.RELAXED_WHILE_LAGGING, Duration.ofSeconds(30),
            Duration.ofMinutes(5)));
        assertThat(parse("durability: {mode: unchanged}\n").durability().mode()).isEqualTo(DurabilityMode.UNCHANGED);
    }

    @Test
    void durabilityProblemsAreReportedTogetherWithTheirKeys() {
        assertThatThrownBy(() -> parse("durability: {mode: fast, lag_threshold: soon}\nmetrics: {port: 1}\n"))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("durability.mode: must be one of relaxed, relaxed_while_lagging, unchanged, not 'fast'")
            .hasMessageContaining("durability.lag_threshold: must be a duration")
            .hasMessageContaining("metrics.port: unknown key");
    }

    @Test
    void theExampleFileSpellsOutTheDefaults() {
        Path example = null;
        for (Path d = Path.of("").toAbsolutePath(); d != null && example == null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("config/example.yml"))) {
                example = d.resolve("config/example.yml");
            }
        }
        assertThat(example).as("config/example.yml").isNotNull();

        ApplierConfig c = new ConfigLoader(k -> null).load(example);

        assertThat(c.metrics()).isEqualTo(MetricsConfig.DEFAULT);
        assertThat(c.durability()).isEqualTo(DurabilityConfig.DEFAULT);
        assertThat(c.verify()).isEqualTo(VerifyConfig.DEFAULT);
        assertThat(c.log()).isEqualTo(LogConfig.DEFAULT);
    }

    @Test
    void verifyHasDefaultsAndChecksItsKeys() {
        assertThat(parse("").verify()).isEqualTo(VerifyConfig.DEFAULT);
        assertThat(parse("verify: {chunk_rows: 500, rows_per_second: 0, attempts: 3, catch_up_timeout: 5s}\n").verify())
            .isEqualTo(new VerifyConfig(500, 0, 3, Duration.ofSeconds(5)));
        assertThatThrownBy(() -> parse("verify: {chunk_rows: 5, rows_per_second: -1, rate: 3}\n"))
            .isInstanceOf(ConfigException.class)
            .hasMessageContaining("verify.chunk_rows")
            .hasMessageContaining("verify.rows_per_second")
            .hasMessageContaining("verify.rate: unknown key");
    }
}
