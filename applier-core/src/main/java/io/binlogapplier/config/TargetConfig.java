package io.binlogapplier.config;

import java.time.Duration;

/**
 * The {@code target:} section: the server we apply to.
 *
 * @param stateSchema the schema holding the applier's position table (created if missing)
 * @param statementTimeout the longest the applier waits for the target's answer to one statement (the socket
 *     timeout of every target connection); longer than the longest legitimate statement, a long DDL included
 * @param tls how the connections to it are secured (the binlog stream and every SQL connection alike)
 * @param reconnectAttempts how often to reconnect in a row after losing the target mid-stream before exiting
 */
public record TargetConfig(
    String host,
    int port,
    String user,
    Secret password,
    String stateSchema,
    Duration connectTimeout,
    Duration statementTimeout,
    ReconnectLimit reconnectAttempts,
    TlsConfig tls
) {
    public String address() {
        return host + ":" + port;
    }
}
