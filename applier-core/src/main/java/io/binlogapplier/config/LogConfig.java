package io.binlogapplier.config;

import java.time.Duration;
import java.util.Map;

/**
 * The {@code log:} section.
 *
 * @param level the root logger's level: trace, debug, info, warn, error or off
 * @param levels levels of single loggers by name (a class or package, e.g. {@code io.binlogapplier.pipeline}),
 *     in file order; they override the built-in quiet levels of the libraries
 * @param format text (one line per event) or json (one JSON object per line)
 * @param progressInterval how often {@code run} logs a progress line while behind; zero: never
 */
public record LogConfig(String level, Map<String, String> levels, LogFormat format, Duration progressInterval) {
    /** info, text, a progress line every 30 s. */
    public static final LogConfig DEFAULT = new LogConfig("info", Map.of(), LogFormat.TEXT, Duration.ofSeconds(30));

    public LogConfig {
        levels = Map.copyOf(levels);
    }

    /** How log lines are written. */
    public enum LogFormat {
        /** {@code 2026-12-02T04:00:00.000Z [thread] INFO Logger - message} */
        TEXT,
        /** one JSON object per line, fields {@code ts level logger thread message} (and {@code exception}) */
        JSON
    }
}
