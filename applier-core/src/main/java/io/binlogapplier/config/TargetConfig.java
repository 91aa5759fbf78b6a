package io.binlogapplier.config;

import java.time.Duration;

/**
 * The {@code target:} section: the server we apply to.
 *
 * @param stateSchema the schema holding the applier's position table (created if missing)
 */
public record TargetConfig(
    String host,
    int port,
    String user,
    Secret password,
    String stateSchema,
    Duration connectTimeout
) {
    public String address() {
        return host + ":" + port;
    }
}
