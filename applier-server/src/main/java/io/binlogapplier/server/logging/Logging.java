package io.binlogapplier.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.LogConfig;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Logging on logback, configured in code (there is no logback.xml): every line goes to stderr, so
 * what a command prints on stdout ({@code check}'s table, {@code status --json}) stays parseable;
 * under systemd both reach the journal. Text lines read
 * {@code 2026-11-30T14:00:00.000Z [thread] INFO Logger - message}; {@code log.format: json} writes
 * one JSON object per line ({@link JsonLayout}). Expected failures are logged as their one-line
 * message, without a stack trace. Not thread-safe against concurrent reconfiguration: the commands
 * call {@link #apply} once, from the main thread, right after reading the configuration.
 */
public final class Logging {
    /** Libraries' loggers kept quiet unless {@code log.level} names them. */
    private static final Map<String, String> QUIET = Map.of(
        "com.zaxxer.hikari", "warn",
        // "Connection … marked as broken" comes with the driver's whole stack trace for every lost
        // target connection; the applier reports the loss itself, in one line.
        "com.zaxxer.hikari.pool.ProxyConnection", "error",
        // "Failed to validate connection … Possibly consider using a shorter maxLifetime value" for each pooled
        // connection a target restart left dead (eight lines seen in one restart): the pool replaces them, the
        // applier reports the outage itself, and the maxLifetime advice does not apply.
        "com.zaxxer.hikari.pool.PoolBase", "error",
        "com.github.shyiko", "warn",
        // The binlog client logs under its class's name, and the applier's subclass of it is ours: its
        // "Database version: 5.5.5-10.11… (major=5, minor=5, …)" misreads a MariaDB, and its "Connected
        // to" repeats the reader's own line.
        "io.binlogapplier.binlog.TaggedGtidClient", "warn");

    static final String TEXT_PATTERN = "%d{\"yyyy-MM-dd'T'HH:mm:ss.SSSXXX\",UTC} [%thread] %level %logger{0} - %msg%n";

    private Logging() {
    }

    /** The defaults, before a configuration is read: info, text, on stderr. Also sends java.util.logging here. */
    public static void configure() {
        apply(LogConfig.DEFAULT);
        java.util.logging.LogManager.getLogManager().reset();
        SLF4JBridgeHandler.install();
        java.util.logging.Logger.getLogger("com.github.shyiko").setLevel(java.util.logging.Level.WARNING);
    }

    /** Applies {@code config}'s levels and format, replacing whatever was configured before. */
    public static void apply(LogConfig config) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return; // another SLF4J binding (a test classpath): leave it alone
        }
        configure(context, config);
    }

    static void configure(LoggerContext context, LogConfig config) {
        context.reset();
        Layout<ILoggingEvent> layout;
        if (config.format() == LogConfig.LogFormat.JSON) {
            layout = new JsonLayout();
        } else {
            PatternLayout pattern = new PatternLayout();
            pattern.setPattern(TEXT_PATTERN);
            layout = pattern;
        }
        layout.setContext(context);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("stderr");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(stderr);
        root.setLevel(Level.toLevel(config.level(), Level.INFO));
        Map<String, String> levels = new LinkedHashMap<>(QUIET);
        levels.putAll(config.levels());
        levels.forEach((name, level) -> context.getLogger(name).setLevel(Level.toLevel(level, Level.INFO)));
    }

    public static void failure(ApplierException e) {
        org.slf4j.Logger log = LoggerFactory.getLogger("binlog-applier");
        String line = e.getMessage() + " [exit " + e.exitCode().code() + "]";
        if (e.exitCode() == ExitCode.INTERNAL) {
            log.error(line, e);
        } else {
            log.error(line);
        }
    }
}
