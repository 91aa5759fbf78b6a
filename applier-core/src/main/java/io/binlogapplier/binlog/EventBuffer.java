package io.binlogapplier.binlog;

import java.io.InputStream;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * A growable buffer of encoded events (v4 header + body [+ CRC32]), for BINLOG statements: events
 * are written into it in place, with no array per event, and leave it as base64 as it is read. The
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

    /** Base64 characters per chunk {@link #base64Stream} encodes: 2,048 groups of four. */
    private static final int STREAM_CHUNK = 8192;

    /** The length of the contents as base64 (the text of a BINLOG statement), in bytes. */
    public int base64Length() {
        return (int) (4L * ((size + 2) / 3));
    }

    /**
     * The contents as base64 (the text of a BINLOG statement), encoded a chunk at a time as it
     * is read: no array the size of the text is made (a BINLOG statement's text is read once, by
     * the driver, into its packets). Valid until the buffer changes.
     */
    public InputStream base64Stream() {
        return new Base64Stream();
    }

    private final class Base64Stream extends InputStream {
        private final byte[] raw = new byte[STREAM_CHUNK / 4 * 3];
        private final byte[] chunk = new byte[STREAM_CHUNK];
        private int rawAt; // the contents' first byte not yet encoded
        private int chunkRaw; // where in the contents the chunk held now starts
        private int chunkAt; // the chunk's next byte to hand out
        private int chunkEnd;
        private int markRaw;
        private int markAt;

        @Override
        public int read() {
            if (!fill()) {
                return -1;
            }
            return chunk[chunkAt++] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            int n = 0;
            while (n < len && fill()) {
                int k = Math.min(len - n, chunkEnd - chunkAt);
                System.arraycopy(chunk, chunkAt, b, off + n, k);
                chunkAt += k;
                n += k;
            }
            return n == 0 ? -1 : n;
        }

        /** Encodes the next chunk once the one held is used up; false at the end of the text. */
        private boolean fill() {
            if (chunkAt < chunkEnd) {
                return true;
            }
            int n = Math.min(raw.length, size - rawAt);
            if (n <= 0) {
                return false;
            }
            if (n == raw.length) {
                System.arraycopy(bytes, rawAt, raw, 0, n);
                chunkEnd = Base64.getEncoder().encode(raw, chunk);
            } else { // the last chunk, shorter: the encoder takes a whole array
                chunkEnd = Base64.getEncoder().encode(java.util.Arrays.copyOfRange(bytes, rawAt, rawAt + n), chunk);
            }
            chunkRaw = rawAt;
            chunkAt = 0;
            rawAt += n;
            return true;
        }

        @Override
        public int available() {
            return chunkEnd - chunkAt;
        }

        @Override
        public boolean markSupported() {
            return true;
        }

        @Override
        public void mark(int readLimit) {
            markRaw = chunkRaw;
            markAt = chunkAt;
        }

        @Override
        public void reset() {
            rawAt = markRaw;
            chunkAt = 0;
            chunkEnd = 0;
            if (markAt > 0) {
                fill();
                chunkAt = markAt;
            }
        }
    }

    /** A copy of the contents. */
    public byte[] toByteArray() {
        return java.util.Arrays.copyOf(bytes, size);
    }
}
