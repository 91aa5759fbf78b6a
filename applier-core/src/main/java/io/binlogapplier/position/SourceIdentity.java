package io.binlogapplier.position;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Which server a saved file position belongs to. A binlog file name and offset mean other transactions
 * on another server: after a failover behind the source's address (a virtual IP, a DNS name, a proxy),
 * resuming from {@code mysql-bin.000042:1337} there would skip some transactions and apply others that
 * this target never had, silently. So the source's {@code server_id} is kept beside the position
 * ({@link StateStore#SOURCE_SERVER_ID}), and a start, or a reconnect, by file position to a source
 * whose {@code server_id} differs stops with {@link ExitCode#SOURCE_CHANGED}. A start by GTID is not
 * checked: the source itself refuses a GTID position it does not hold.
 */
public final class SourceIdentity {
    private SourceIdentity() {
    }

    /**
     * Throws {@link ExitCode#SOURCE_CHANGED} when {@code saved} (the {@code server_id} recorded with a
     * file position, or null) is not {@code now} (the source's, as text, or null when unknown).
     */
    public static void requireSame(Long saved, String now, String address, SourcePosition position) {
        Long current = parse(now);
        if (differs(saved, current)) {
            throw changed(address, current, saved, position);
        }
    }

    /** Both {@code server_id}s are known and they differ: a file position of {@code saved} is not {@code now}'s. */
    public static boolean differs(Long saved, Long now) {
        return saved != null && now != null && !saved.equals(now);
    }

    /** The error for a source at {@code address} that is server {@code now}, where {@code position} is of {@code saved}. */
    public static ApplierException changed(String address, long now, long saved, SourcePosition position) {
        String gtids = position.gtids() == null || position.gtids().isEmpty() ? null : position.gtids();
        return new ApplierException(ExitCode.SOURCE_CHANGED, "source " + address + " is server_id " + now
            + ", but the saved position " + position.coordinates() + " is in server_id " + saved + "'s binlog (a file"
            + " position means other transactions on another server): point source back at server_id " + saved
            + ", or, if this server has the same history, resume by GTID: binlog-applier set-position --config <file> "
            + (gtids == null ? "<GTID position>" : gtids));
    }

    /**
     * Records the source's {@code server_id} (as text; nothing when unknown) with the position, unless
     * {@code recorded} (what the state row holds, null when nothing) is that already.
     */
    public static void record(StateStore state, Connection c, Long recorded, String serverId) throws SQLException {
        Long id = parse(serverId);
        if (id != null && !id.equals(recorded)) {
            state.recordSourceServerId(c, id);
        }
    }

    /** {@code server_id} as a number, or null when unknown or not a number. */
    public static Long parse(String serverId) {
        if (serverId == null) {
            return null;
        }
        try {
            return Long.parseLong(serverId.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
