package io.binlogapplier.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One JSON object per log event, on one line, for log shippers. The fields, always in this order:
 * {@code ts} (UTC, milliseconds, e.g. {@code 2026-12-02T04:00:00.000Z}), {@code level} (TRACE … ERROR),
 * {@code logger} (the full logger name), {@code thread}, {@code message}; and {@code exception} (the
 * stack trace as text) only when the event carries one. Stateless, so thread-safe.
 */
public final class JsonLayout extends LayoutBase<ILoggingEvent> {
    private static final DateTimeFormatter TS =
        DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    @Override
    public String doLayout(ILoggingEvent event) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"ts\":\"").append(TS.format(Instant.ofEpochMilli(event.getTimeStamp()))).append('"');
        field(b, "level", event.getLevel().toString());
        field(b, "logger", event.getLoggerName());
        field(b, "thread", event.getThreadName());
        field(b, "message", event.getFormattedMessage());
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown != null) {
            field(b, "exception", ThrowableProxyUtil.asString(thrown));
        }
        return b.append('}').append(CoreConstants.LINE_SEPARATOR).toString();
    }

    private static void field(StringBuilder b, String name, String value) {
        b.append(",\"").append(name).append("\":");
        quote(b, value);
    }

    /** {@code value} as a JSON string; null as null. */
    static void quote(StringBuilder b, String value) {
        if (value == null) {
            b.append("null");
            return;
        }
        b.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
