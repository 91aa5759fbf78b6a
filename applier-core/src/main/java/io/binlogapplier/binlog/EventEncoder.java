package io.binlogapplier.binlog;

import java.util.zip.CRC32;

/**
 * Writes an event back into binlog bytes (v4 header + body [+ CRC32]), for BINLOG statements.
 * Pure. The event length in the header is recomputed, so bodies of events that came inside a
 * compressed MySQL payload (which carry no checksum) can be given one.
 */
public final class EventEncoder {
    public static final int HEADER_LENGTH = 19;
    /** Where the flags sit in a rows event body (v1 or v2): after the 6-byte table id. */
    static final int ROWS_FLAGS_OFFSET = 6;

    private EventEncoder() {
    }

    /**
     * @param checksum append a CRC32 of header and body (the FORMAT_DESCRIPTION in force says
     *     whether events carry one)
     */
    public static byte[] event(EventHeader h, byte[] body, boolean checksum) {
        int length = HEADER_LENGTH + body.length + (checksum ? 4 : 0);
        byte[] out = new byte[length];
        header(out, 0, h, length);
        System.arraycopy(body, 0, out, HEADER_LENGTH, body.length);
        if (checksum) {
            CRC32 crc = new CRC32();
            crc.update(out, 0, length - 4);
            putLE(out, length - 4, crc.getValue(), 4);
        }
        return out;
    }

    /** Writes a v4 header at {@code off}, with {@code length} as the event length. */
    static void header(byte[] out, int off, EventHeader h, int length) {
        putLE(out, off, h.timestamp(), 4);
        out[off + 4] = (byte) h.type();
        putLE(out, off + 5, h.serverId(), 4);
        putLE(out, off + 9, length, 4);
        putLE(out, off + 13, h.nextPosition(), 4);
        putLE(out, off + 17, h.flags(), 2);
    }

    /**
     * A TABLE_MAP body (no header, no checksum) naming another schema: table id (6 bytes), flags
     * (2), schema name length (1), the name, a NUL, then table name, columns and metadata as they
     * were. The target then applies the rows of that table map in {@code schema}.
     *
     * @param schema at most 255 bytes in UTF-8 (schema names in the binlog are UTF-8)
     */
    public static byte[] tableMapWithSchema(byte[] body, String schema) {
        byte[] name = schema.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (name.length == 0 || name.length > 255) {
            throw new IllegalArgumentException("schema name of " + name.length + " bytes");
        }
        int oldLength = body[8] & 0xFF;
        int rest = 8 + 1 + oldLength + 1;
        if (rest > body.length || body[rest - 1] != 0) {
            throw new BinlogFormatException("table map body without a NUL after its " + oldLength + "-byte schema name");
        }
        byte[] out = new byte[8 + 1 + name.length + 1 + body.length - rest];
        System.arraycopy(body, 0, out, 0, 8);
        out[8] = (byte) name.length;
        System.arraycopy(name, 0, out, 9, name.length);
        out[9 + name.length] = 0;
        System.arraycopy(body, rest, out, 10 + name.length, body.length - rest);
        return out;
    }

    /**
     * A rows-event body (v1 or v2) with STMT_END_F set: the flags are the two bytes after the
     * 6-byte table id. Used when the rows event that ended a source statement was filtered out, so
     * the last one kept ends the statement on the target instead.
     */
    public static byte[] rowsWithStatementEnd(byte[] body) {
        byte[] out = body.clone();
        out[ROWS_FLAGS_OFFSET] |= BinlogEvent.Rows.FLAG_STMT_END;
        return out;
    }

    /** True when the FORMAT_DESCRIPTION event (whole, as received) declares CRC32 checksums. */
    public static boolean checksums(byte[] formatDescription) {
        return EventFramer.formatDescriptionChecksumLength(
            java.util.Arrays.copyOfRange(formatDescription, HEADER_LENGTH, formatDescription.length)) == 4;
    }

    static void putLE(byte[] b, int off, long v, int n) {
        for (int i = 0; i < n; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
