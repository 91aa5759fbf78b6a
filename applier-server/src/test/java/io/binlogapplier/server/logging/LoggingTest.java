package io.binlogapplier.server.logging;

import ch.qos.logback.classic.LoggerContext;
import io.binlogapplier.config.LogConfig;
import io.binlogapplier.server.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LoggingTest {

    @AfterEach
    void defaults() {
        Logging.apply(LogConfig.DEFAULT);
    }

    /** What {@code body} logged, on stderr; stdout must stay empty. */
    private static List<String> logged(LogConfig config, Runnable body) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBuf = new ByteArrayOutputStream();
        ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(outBuf, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(errBuf, true, StandardCharsets.UTF_8));
        try {
            Logging.apply(config);
            body.run();
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        assertThat(outBuf.toString(StandardCharsets.UTF_8)).as("stdout").isEmpty();
        return errBuf.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void theBindingIsLogback() {
        assertThat(LoggerFactory.getILoggerFactory()).isInstanceOf(LoggerContext.class);
    }

    @Test
    void textLinesGoToStderrWithTimeThreadLevelAndShortLoggerName() {
        List<String> lines = logged(LogConfig.DEFAULT,
            () -> LoggerFactory.getLogger("io.binlogapplier.pipeline.Applier").info("applying from {}", "f.000001:4"));

        assertThat(lines).singleElement().asString()
            .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z \\[main] INFO Applier - applying from f.000001:4");
    }

    @Test
    void jsonLinesEachParseWithTheDocumentedFieldsAlsoForErrorsWithStackTraces() {
        LogConfig json = new LogConfig("info", Map.of(), LogConfig.LogFormat.JSON, Duration.ZERO);
        List<String> lines = logged(json, () -> {
            LoggerFactory.getLogger("io.binlogapplier.pipeline.Applier").info("a \"quoted\" name\nand a\ttab \u0001");
            LoggerFactory.getLogger("binlog-applier").error("target lost [exit 20]", new IllegalStateException("boom"));
        });

        assertThat(lines).hasSize(2);
        Map<String, Object> info = Json.object(lines.get(0));
        assertThat(info).containsOnlyKeys("ts", "level", "logger", "thread", "message");
        assertThat(info.get("ts").toString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        assertThat(info).containsEntry("level", "INFO").containsEntry("logger", "io.binlogapplier.pipeline.Applier")
            .containsEntry("thread", "main").containsEntry("message", "a \"quoted\" name\nand a\ttab \u0001");
        Map<String, Object> error = Json.object(lines.get(1));
        assertThat(error).containsEntry("level", "ERROR").containsEntry("message", "target lost [exit 20]");
        assertThat(error.get("exception").toString()).startsWith("java.lang.IllegalStateException: boom")
            .contains("at io.binlogapplier.server.logging.LoggingTest");
    }

    @Test
    void levelsApplyToTheRootAndToEachNamedLoggerAndLibrariesStayQuiet() {
        LogConfig perLogger = new LogConfig("warn", Map.of("io.binlogapplier.pipeline", "debug"), LogConfig.LogFormat.TEXT,
            Duration.ZERO);
        List<String> lines = logged(perLogger, () -> {
            LoggerFactory.getLogger("io.binlogapplier.pipeline.Workers").debug("shown: pipeline at debug");
            LoggerFactory.getLogger("io.binlogapplier.server.RunCommand").info("hidden: root at warn");
            LoggerFactory.getLogger("io.binlogapplier.server.RunCommand").warn("shown: a warning");
        });
        assertThat(lines).hasSize(2).allMatch(l -> l.contains("shown"));

        List<String> quiet = logged(new LogConfig("debug", Map.of(), LogConfig.LogFormat.TEXT, Duration.ZERO),
            () -> {
                LoggerFactory.getLogger("com.zaxxer.hikari.pool.HikariPool").info("pool stats");
                // the binlog client's own lines, logged under the name of the applier's subclass of it
                LoggerFactory.getLogger("io.binlogapplier.binlog.TaggedGtidClient").info("Database version: 5.5.5-10.11");
            });
        assertThat(quiet).isEmpty();
    }
}
