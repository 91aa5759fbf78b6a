package io.binlogapplier.apply;

import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.privilege.Grants;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads from the target what {@link MethodChoice#decide} needs ({@code VERSION()}, {@code SHOW GRANTS})
 * and decides. The only part of choosing a method that talks to a server.
 */
public final class MethodResolver {
    private MethodResolver() {
    }

    /**
     * @param sourceVersion the source's {@code VERSION()}
     * @param target a connection as the configured target user
     * @throws SQLException when the target's version cannot be read (SHOW GRANTS failing is a fact, not an error)
     */
    public static MethodChoice resolve(ApplyMethod configured, String sourceVersion, Connection target, String user)
        throws SQLException {
        if (configured != ApplyMethod.AUTO) {
            return MethodChoice.configured(configured);
        }
        String targetVersion = lines(target, "SELECT VERSION()").get(0);
        Grants grants = null;
        String problem = null;
        try {
            grants = Grants.parse(lines(target, "SHOW GRANTS"));
        } catch (SQLException e) {
            problem = Messages.firstLine(e);
        }
        return MethodChoice.decide(configured, new MethodChoice.Facts(ServerVersion.parseOrNull(sourceVersion),
            ServerVersion.parseOrNull(targetVersion), grants, problem, user));
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
