package io.binlogapplier.source;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import io.binlogapplier.config.SourceConfig;
import io.binlogapplier.tls.TlsSettings;

import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The one place connections to the source are made: the binlog client and every SQL connection
 * (start-up inspection, the end poller, {@code check}, {@code status}) take address, credentials,
 * timeouts and TLS ({@code source.tls}) from here, so both kinds are secured alike.
 */
public final class SourceConnections {
    private SourceConnections() {
    }

    /** A SQL connection to the source; the caller words the {@link SQLException}. */
    public static Connection jdbc(SourceConfig config) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(config), jdbcProperties(config));
    }

    static String jdbcUrl(SourceConfig config) {
        return "jdbc:mysql://" + config.host() + ":" + config.port() + "/";
    }

    static Properties jdbcProperties(SourceConfig config) {
        Properties p = new Properties();
        p.setProperty("user", config.user());
        p.setProperty("password", config.password().value());
        p.setProperty("connectTimeout", Long.toString(config.connectTimeout().toMillis()));
        p.setProperty("socketTimeout", Long.toString(Math.max(30_000, config.connectTimeout().toMillis())));
        p.setProperty("allowPublicKeyRetrieval", "true");
        p.setProperty("characterEncoding", "UTF-8");
        TlsSettings.jdbc(config.tls(), p);
        return p;
    }

    /**
     * A binlog client for the source, not yet connected: credentials, timeouts and TLS set; the
     * caller sets the position, deserializer and listeners.
     */
    public static BinaryLogClient binlogClient(SourceConfig config) {
        return configure(new BinaryLogClient(config.host(), config.port(), config.user(), config.password().value()),
            config);
    }

    /** As {@link #binlogClient}, for a client made elsewhere (a subclass) with this config's address and user. */
    public static <C extends BinaryLogClient> C configure(C c, SourceConfig config) {
        c.setServerId(config.serverId());
        // A silent partition is noticed by time: the source sends a heartbeat whenever it has sent
        // nothing else for source.heartbeat, so a read that waits source.read_timeout for one byte
        // means the stream is dead. The library sets no timeout of its own on the socket. The TLS
        // socket wraps this one, so the timeout holds for an encrypted stream too.
        int readTimeout = (int) Math.min(Integer.MAX_VALUE, config.readTimeout().toMillis());
        c.setSocketFactory(() -> {
            Socket s = new Socket();
            s.setSoTimeout(readTimeout);
            s.setKeepAlive(true);
            return s;
        });
        c.setConnectTimeout(config.connectTimeout().toMillis());
        TlsSettings.binlog(config.tls(), config.host(), config.port(), c);
        return c;
    }
}
