package io.binlogapplier.server.check;

import io.binlogapplier.config.TargetConfig;
import io.binlogapplier.pipeline.TargetErrors;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One plain connection to the target, for {@code check} and {@code status} (no pool: they run a few
 * queries); its settings, TLS included, come from {@link io.binlogapplier.target.TargetConnections}.
 */
public final class TargetConnections {
    private TargetConnections() {
    }

    /** @throws io.binlogapplier.ApplierException with the same one-line messages and exit codes as {@code run} */
    public static Connection open(TargetConfig target) {
        try {
            return io.binlogapplier.target.TargetConnections.jdbc(target);
        } catch (SQLException e) {
            throw TargetErrors.connect(e, target.address());
        }
    }
}
