package io.binlogapplier.config;

import java.nio.file.Path;

/**
 * The {@code metrics:} section: where the HTTP endpoint ({@code /metrics}, {@code /health}) listens,
 * and how it is secured.
 *
 * @param host the address to bind (an IP address or host name; empty: every interface); null when off
 * @param port the TCP port (1..65535); 0 when off
 * @param tlsCert PEM certificate (chain) to serve HTTPS with; null: plain HTTP
 * @param tlsKey PEM private key of {@code tlsCert}; null with it
 * @param user the user of HTTP basic authentication; null: no authentication
 * @param password that user's password (from {@code basic_auth.password_file}); null with it
 */
public record MetricsConfig(String host, int port, Path tlsCert, Path tlsKey, String user, Secret password) {
    public MetricsConfig(String host, int port) {
        this(host, port, null, null, null, null);
    }

    /** This endpoint served over HTTPS with {@code cert}/{@code key}, and basic authentication when {@code user} is set. */
    MetricsConfig secured(Path cert, Path key, String user, Secret password) {
        return new MetricsConfig(host, port, cert, key, user, password);
    }

    public boolean tls() {
        return tlsCert != null;
    }

    public boolean basicAuth() {
        return user != null;
    }

    /** No endpoint at all ({@code listen: off}). */
    public static final MetricsConfig OFF = new MetricsConfig(null, 0);
    /** The default: loopback only, port 9104. */
    public static final MetricsConfig DEFAULT = new MetricsConfig("127.0.0.1", 9104);

    public boolean enabled() {
        return host != null;
    }

    /** {@code host:port} as written in the config ({@code [::1]:9104} for IPv6), or {@code off}. */
    public String listen() {
        if (!enabled()) {
            return "off";
        }
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * Parses {@code host:port}, {@code [ipv6]:port} or {@code :port} (every interface); returns null
     * when the text is none of these. {@code off} is handled by the caller.
     */
    static MetricsConfig parseOrNull(String text) {
        String t = text.trim();
        int colon = t.lastIndexOf(':');
        if (colon < 0 || colon == t.length() - 1) {
            return null;
        }
        String host = t.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            return null;
        }
        if (port < 1 || port > 65535) {
            return null;
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
            if (!host.matches("[0-9A-Fa-f:.]+")) {
                return null;
            }
        } else if (!host.isEmpty() && !host.matches("[A-Za-z0-9.-]+")) {
            return null;
        }
        return new MetricsConfig(host, port);
    }
}
