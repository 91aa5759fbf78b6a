package io.binlogapplier.config;

import java.time.Duration;

/**
 * The {@code source:} section: the server we read the binlog from, as a replica.
 *
 * @param serverId our replica server_id on the source; must differ from every other replica's
 * @param start where to begin when the target has no saved position
 * @param heartbeat how often an idle source sends a heartbeat (also bounds how stale "caught up" can be)
 * @param readTimeout the longest the binlog stream may stay silent (no byte, not even a heartbeat) before the
 *     source counts as lost and is reconnected: a silent partition is noticed by time
 * @param tls how the connections to it are secured (the binlog stream and every SQL connection alike)
 * @param reconnectAttempts how often to reconnect in a row after losing the source mid-stream before exiting
 */
public record SourceConfig(
    String host,
    int port,
    String user,
    Secret password,
    long serverId,
    StartPosition start,
    Duration connectTimeout,
    Duration heartbeat,
    Duration readTimeout,
    ReconnectLimit reconnectAttempts,
    TlsConfig tls
) {
    public String address() {
        return host + ":" + port;
    }
}
