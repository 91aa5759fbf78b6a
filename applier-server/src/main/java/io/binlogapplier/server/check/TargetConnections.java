package io.binlogapplier.server.check;

import io.binlogapplier.config.TargetConfig;
import io.binlogapplier.pipeline.TargetErrors;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** One plain connection to the target, for {@code check} and {@code status} (no pool: they run a few queries). */
public final class TargetConnections {
    private TargetConnections() {
    }

    /** @throws io.binlogapplier.ApplierException with the same one-line messages and exit codes as {@code run} */
    public static Connection open(TargetConfig target) {
        Properties p = new Properties();
        p.setProperty("user", target.user());
        p.setProperty("password", target.password().value());
        p.setProperty("connectTimeout", Long.toString(target.connectTimeout().toMillis()));
        p.setProperty("socketTimeout", Long.toString(Math.max(30_000, target.connectTimeout().toMillis())));
        p.setProperty("sslMode", "PREFERRED");
        p.setProperty("allowPublicKeyRetrieval", "true");
        p.setProperty("characterEncoding", "UTF-8");
        try {
            return DriverManager.getConnection("jdbc:mysql://" + target.host() + ":" + target.port() + "/", p);
        } catch (SQLException e) {
            throw TargetErrors.connect(e);
        }
    }
}
