package io.binlogapplier.binlog;

import java.util.zip.CRC32;

/**
 * Writes an event back into binlog bytes (v4 header + body [+ CRC32]), for BINLOG statements.
 * Pure. The event length in the header is recomputed, so bodies of events that came inside a
 * compressed MySQL payload (which carry no checksum) can be given one.
 */
public final class EventEncoder {
    public static final int HEADER_LENGTH = 19;

    private EventEncoder() {
    }

    /**
     * @param checksum append a CRC32 of header and body (the FORMAT_DESCRIPTION in force says
     *     whether events carry one)
     */
    public static byte[] event(EventHeader h, byte[] body, boolean checksum) {
        int length = HEADER_LENGTH + body.length + (checksum ? 4 : 0);
        byte[] out = new byte[length];
        putLE(out, 0, h.timestamp(), 4);
        out[4] = (byte) h.type();
        putLE(out, 5, h.serverId(), 4);
        putLE(out, 9, length, 4);
        putLE(out, 13, h.nextPosition(), 4);
        putLE(out, 17, h.flags(), 2);
        System.arraycopy(body, 0, out, HEADER_LENGTH, body.length);
        if (checksum) {
            CRC32 crc = new CRC32();
            crc.update(out, 0, length - 4);
            putLE(out, length - 4, crc.getValue(), 4);
        }
        return out;
    }

    /** True when the FORMAT_DESCRIPTION event (whole, as received) declares CRC32 checksums. */
    public static boolean checksums(byte[] formatDescription) {
        return EventFramer.formatDescriptionChecksumLength(
            java.util.Arrays.copyOfRange(formatDescription, HEADER_LENGTH, formatDescription.length)) == 4;
    }

    private static void putLE(byte[] b, int off, long v, int n) {
        for (int i = 0; i < n; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
