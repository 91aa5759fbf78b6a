package io.binlogapplier.binlog;

/**
 * The common header of every binlog event (v4): when the source wrote it (seconds), its raw type
 * code, the source server id, its length and the offset just past it in the source's file.
 * {@code nextPosition} is 0 for artificial events the source invents on connect.
 */
public record EventHeader(long timestamp, int type, long serverId, long eventLength, long nextPosition, int flags) {
    /** LOG_EVENT_IGNORABLE_F: a replica that does not know this event type may skip it. */
    public static final int FLAG_IGNORABLE = 0x80;
    /** LOG_EVENT_ARTIFICIAL_F: invented by the source for this connection, not in its file. */
    public static final int FLAG_ARTIFICIAL = 0x20;

    public boolean ignorable() {
        return (flags & FLAG_IGNORABLE) != 0;
    }

    public boolean artificial() {
        return (flags & FLAG_ARTIFICIAL) != 0 || nextPosition == 0;
    }
}
