package io.binlogapplier.target;

import io.binlogapplier.config.TargetConfig;
import io.binlogapplier.tls.TlsSettings;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The one place the connection settings of the target are made: the apply pool ({@code TargetPool})
 * and the plain connections of {@code check} and {@code status} take address, credentials, timeouts
 * and TLS ({@code target.tls}) from here.
 */
public final class TargetConnections {
    private TargetConnections() {
    }

    public static String jdbcUrl(TargetConfig target) {
        return "jdbc:mysql://" + target.host() + ":" + target.port() + "/";
    }

    /** The driver properties every target connection has, TLS included; no user or password. */
    public static Properties properties(TargetConfig target) {
        Properties p = new Properties();
        p.setProperty("connectTimeout", Long.toString(target.connectTimeout().toMillis()));
        p.setProperty("allowPublicKeyRetrieval", "true");
        p.setProperty("characterEncoding", "UTF-8");
        TlsSettings.jdbc(target.tls(), p);
        return p;
    }

    /** One plain connection (no pool), for a few queries; the caller words the {@link SQLException}. */
    public static Connection jdbc(TargetConfig target) throws SQLException {
        Properties p = properties(target);
        p.setProperty("user", target.user());
        p.setProperty("password", target.password().value());
        p.setProperty("socketTimeout", Long.toString(Math.max(30_000, target.connectTimeout().toMillis())));
        return DriverManager.getConnection(jdbcUrl(target), p);
    }
}
