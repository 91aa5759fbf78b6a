package io.binlogapplier.binlog;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * A growable buffer of encoded events (v4 header + body [+ CRC32]), for BINLOG statements: events
 * are written into it in place, with no array per event, and leave it as base64 in one pass. The
 * STMT_END_F flag of a rows event is set or cleared as it is written. Reused: {@link #reset}.
 */
public final class EventBuffer {
    private byte[] bytes;
    private int size;
    private final CRC32 crc = new CRC32();

    public EventBuffer(int initialCapacity) {
        bytes = new byte[Math.max(64, initialCapacity)];
    }

    /** Appends one event as {@link EventEncoder#event} encodes it. */
    public void event(EventHeader h, byte[] body, boolean checksum) {
        int start = begin(h, body, checksum);
        seal(start, checksum);
    }

    /** Appends a rows event (v1 or v2) with STMT_END_F set ({@code statementEnd}) or cleared. */
    public void rowsEvent(EventHeader h, byte[] body, boolean checksum, boolean statementEnd) {
        int start = begin(h, body, checksum);
        int flags = start + EventEncoder.HEADER_LENGTH + EventEncoder.ROWS_FLAGS_OFFSET;
        if (statementEnd) {
            bytes[flags] |= (byte) BinlogEvent.Rows.FLAG_STMT_END;
        } else {
            bytes[flags] &= (byte) ~BinlogEvent.Rows.FLAG_STMT_END;
        }
        seal(start, checksum);
    }

    /** Header and body written; returns where the event starts. */
    private int begin(EventHeader h, byte[] body, boolean checksum) {
        int length = EventEncoder.HEADER_LENGTH + body.length + (checksum ? 4 : 0);
        ensure(length);
        int start = size;
        EventEncoder.header(bytes, start, h, length);
        System.arraycopy(body, 0, bytes, start + EventEncoder.HEADER_LENGTH, body.length);
        size += length;
        return start;
    }

    private void seal(int start, boolean checksum) {
        if (checksum) {
            int end = size - 4;
            crc.reset();
            crc.update(bytes, start, end - start);
            EventEncoder.putLE(bytes, end, crc.getValue(), 4);
        }
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            long want = Math.max((long) size + more, 2L * bytes.length);
            if (want > Integer.MAX_VALUE - 16) {
                want = (long) size + more;
            }
            bytes = java.util.Arrays.copyOf(bytes, (int) want);
        }
    }

    public int size() {
        return size;
    }

    public void reset() {
        size = 0;
    }

    /** The contents, base64-encoded (the text of a BINLOG statement). */
    public byte[] base64() {
        return Base64.getEncoder().encode(ByteBuffer.wrap(bytes, 0, size)).array();
    }

    /** A copy of the contents. */
    public byte[] toByteArray() {
        return java.util.Arrays.copyOf(bytes, size);
    }
}
