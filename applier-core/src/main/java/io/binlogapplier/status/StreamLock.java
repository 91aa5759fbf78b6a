package io.binlogapplier.status;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;

/**
 * The stream's named lock on the target ({@code GET_LOCK}): a running applier holds it on a
 * connection of its own for its whole life; a command that needs the applier stopped takes it for
 * its own duration. The server frees it when the holding session ends, so a killed process leaves
 * nothing behind. Stateless; thread-safe.
 */
public final class StreamLock {
    private final String name;

    public StreamLock(String schema, String stream) {
        String n = "binlog-applier/" + schema + "." + stream;
        if (n.length() > 64) { // the servers' limit for lock names
            try {
                byte[] h = MessageDigest.getInstance("SHA-256").digest(n.getBytes(StandardCharsets.UTF_8));
                n = "binlog-applier/" + HexFormat.of().formatHex(h).substring(0, 40);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
        this.name = n;
    }

    public String name() {
        return name;
    }

    /** @return true when {@code c}'s session holds the lock now (it waited at most {@code seconds}) */
    public boolean acquire(Connection c, int seconds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT GET_LOCK(?, ?)")) {
            ps.setString(1, name);
            ps.setInt(2, seconds);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getInt(1) == 1;
            }
        }
    }

    /** The connection id of the session holding the lock, null when free. */
    public Long holder(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT IS_USED_LOCK(?)")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long id = rs.getLong(1);
                return rs.wasNull() ? null : id;
            }
        }
    }

    public void release(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT RELEASE_LOCK(?)")) {
            ps.setString(1, name);
            ps.executeQuery().close();
        }
    }

    /** The connection id of {@code c}'s session. */
    public static long connectionId(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT CONNECTION_ID()"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
