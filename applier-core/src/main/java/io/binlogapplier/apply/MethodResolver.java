package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.privilege.Grants;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads from the target what {@link MethodChoice#decide} needs ({@code VERSION()}, {@code SHOW GRANTS}, the
 * exec mode) and decides. The only part of choosing a method that talks to a server.
 */
public final class MethodResolver {
    private MethodResolver() {
    }

    /**
     * @param sourceVersion the source's {@code VERSION()}
     * @param target a connection as the configured target user
     * @param warn takes the one line to log when the sql method runs on a target whose exec mode is IDEMPOTENT
     * @throws SQLException when the target's version or variables cannot be read (SHOW GRANTS failing is a fact,
     *     not an error)
     * @throws ApplierException {@link ExitCode#TARGET_EXEC_MODE} for {@code apply.method: binlog} on a target whose
     *     exec mode is IDEMPOTENT
     */
    public static MethodChoice resolve(ApplyMethod configured, String sourceVersion, Connection target, String user,
                                       Consumer<String> warn) throws SQLException {
        String idempotent = idempotent(target);
        if (configured == ApplyMethod.BINLOG && idempotent != null) {
            throw new ApplierException(ExitCode.TARGET_EXEC_MODE, MethodChoice.idempotentRefusal(idempotent));
        }
        MethodChoice choice = configured != ApplyMethod.AUTO ? MethodChoice.configured(configured) : decide(
            sourceVersion, target, user, idempotent);
        if (choice.method() == ApplyMethod.SQL && idempotent != null) {
            warn.accept(MethodChoice.idempotentCaveat(idempotent));
        }
        return choice;
    }

    private static MethodChoice decide(String sourceVersion, Connection target, String user, String idempotent)
        throws SQLException {
        String targetVersion = lines(target, "SELECT VERSION()").get(0);
        Grants grants = null;
        String problem = null;
        try {
            grants = Grants.parse(lines(target, "SHOW GRANTS"));
        } catch (SQLException e) {
            problem = Messages.firstLine(e);
        }
        return MethodChoice.decide(ApplyMethod.AUTO, new MethodChoice.Facts(ServerVersion.parseOrNull(sourceVersion),
            ServerVersion.parseOrNull(targetVersion), grants, problem, user, idempotent));
    }

    /**
     * The target's exec mode as "name=IDEMPOTENT" when it is IDEMPOTENT, else null. MariaDB and MySQL before
     * 8.0.26 call it {@code slave_exec_mode}, MySQL since {@code replica_exec_mode} (and may show both names);
     * the name the server shows first among those set to IDEMPOTENT is given.
     */
    public static String idempotent(Connection target) throws SQLException {
        try (Statement s = target.createStatement(); ResultSet rs = s.executeQuery("SHOW GLOBAL VARIABLES WHERE"
            + " Variable_name IN ('replica_exec_mode', 'slave_exec_mode')")) {
            while (rs.next()) {
                if ("IDEMPOTENT".equalsIgnoreCase(rs.getString(2))) {
                    return rs.getString(1) + "=IDEMPOTENT";
                }
            }
            return null;
        }
    }

    private static List<String> lines(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }
}
