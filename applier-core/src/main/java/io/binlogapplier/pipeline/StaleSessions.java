package io.binlogapplier.pipeline;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * Sessions a target still keeps for the workers of a pipeline that lost it. A server that did not
 * restart (a silent partition, a reset the server never saw) keeps such a session, with its open
 * unit and that unit's row locks, until its own timeouts end it (wait_timeout: 8 hours by default):
 * the next pipeline's workers would wait for those locks. So after a reconnect to the same server
 * instance they are killed (the server rolls their units back) before the position is read again.
 * A restarted server has none, and its connection ids start again from 1: then nothing is killed.
 */
final class StaleSessions {
    private static final Logger log = LoggerFactory.getLogger(StaleSessions.class);
    /** How far apart two readings of the server's start time may be and still name one instance. */
    private static final long SAME_INSTANCE_SECONDS = 3;
    static final long AWAIT_GONE_MILLIS = 30_000;

    private StaleSessions() {
    }

    /** When the target server started, in epoch seconds (its clock): names the server instance. */
    static long serverStarted(Connection c) throws SQLException {
        long now;
        long uptime;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT UNIX_TIMESTAMP()")) {
                rs.next();
                now = rs.getLong(1);
            }
            try (ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Uptime'")) {
                rs.next();
                uptime = rs.getLong(2);
            }
        }
        return now - uptime;
    }

    static boolean sameInstance(long startedBefore, long startedNow) {
        return Math.abs(startedBefore - startedNow) <= SAME_INSTANCE_SECONDS;
    }

    /**
     * Kills those of {@code ids} (0s ignored) the server still lists for {@code user}, and waits up to
     * {@link #AWAIT_GONE_MILLIS} (or a stop) for them to finish rolling back.
     *
     * @return how many were killed
     */
    static int kill(Connection c, String user, long[] ids, StopSignal stop) throws SQLException, InterruptedException {
        List<Long> alive = listed(c, user, ids);
        for (long id : alive) {
            try (Statement s = c.createStatement()) {
                s.execute("KILL CONNECTION " + id);
            } catch (SQLException e) {
                log.debug("KILL CONNECTION {}: {}", id, e.toString()); // gone meanwhile (1094 unknown thread)
            }
        }
        if (!alive.isEmpty()) {
            log.info("killed {} session(s) the target kept for the lost workers ({}): their units roll back", alive.size(),
                alive);
            long deadline = System.nanoTime() + AWAIT_GONE_MILLIS * 1_000_000;
            // A killed session lingers while it rolls back; its locks go with it.
            while (!listed(c, user, ids).isEmpty() && System.nanoTime() < deadline) {
                if (stop.await(100)) {
                    break;
                }
            }
        }
        return alive.size();
    }

    private static List<Long> listed(Connection c, String user, long[] ids) throws SQLException {
        StringJoiner in = new StringJoiner(",");
        for (long id : ids) {
            if (id > 0) {
                in.add(Long.toString(id));
            }
        }
        List<Long> found = new ArrayList<>();
        if (in.length() == 0) {
            return found;
        }
        try (var ps = c.prepareStatement("SELECT ID FROM information_schema.PROCESSLIST WHERE ID IN (" + in
            + ") AND USER = ? AND ID <> CONNECTION_ID()")) {
            ps.setString(1, user);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getLong(1));
                }
            }
        }
        return found;
    }
}
