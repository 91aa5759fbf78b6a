package io.binlogapplier.binlog;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;

/**
 * A cursor over a byte array holding one event body, with the integer encodings the binlog
 * uses (little-endian fixed width, big-endian for temporal/decimal cells, MySQL packed integers).
 * Not thread-safe; one per decode.
 */
final class ByteReader {
    private final byte[] buf;
    private int pos;
    private final int end;

    ByteReader(byte[] buf) {
        this(buf, 0, buf.length);
    }

    ByteReader(byte[] buf, int offset, int end) {
        this.buf = buf;
        this.pos = offset;
        this.end = end;
    }

    int position() {
        return pos;
    }

    int remaining() {
        return end - pos;
    }

    boolean hasRemaining() {
        return pos < end;
    }

    private void need(int n) {
        if (n < 0 || pos + n > end) {
            throw new BinlogFormatException("event body ends early: need " + n + " bytes at offset " + pos
                + ", have " + (end - pos));
        }
    }

    void skip(int n) {
        need(n);
        pos += n;
    }

    int u8() {
        need(1);
        return buf[pos++] & 0xFF;
    }

    int u16() {
        need(2);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
        pos += 2;
        return v;
    }

    int u24() {
        need(3);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16;
        pos += 3;
        return v;
    }

    long u32() {
        need(4);
        long v = (buf[pos] & 0xFFL) | (buf[pos + 1] & 0xFFL) << 8 | (buf[pos + 2] & 0xFFL) << 16
            | (buf[pos + 3] & 0xFFL) << 24;
        pos += 4;
        return v;
    }

    /** Little-endian unsigned integer of {@code n} (1..8) bytes; for 8 bytes the result may be negative. */
    long uLE(int n) {
        need(n);
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = (v << 8) | (buf[pos + i] & 0xFFL);
        }
        pos += n;
        return v;
    }

    /** Big-endian unsigned integer of {@code n} (1..8) bytes. */
    long uBE(int n) {
        need(n);
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | (buf[pos + i] & 0xFFL);
        }
        pos += n;
        return v;
    }

    long i64() {
        return uLE(8);
    }

    /** MySQL length-encoded integer ("packed"). */
    long packed() {
        int first = u8();
        if (first < 0xFB) {
            return first;
        }
        return switch (first) {
            case 0xFC -> u16();
            case 0xFD -> u24();
            case 0xFE -> uLE(8);
            default -> throw new BinlogFormatException("bad packed integer prefix 0x" + Integer.toHexString(first));
        };
    }

    byte[] bytes(int n) {
        need(n);
        byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return out;
    }

    byte[] rest() {
        return bytes(end - pos);
    }

    /** Bitmap of {@code bits} bits, least significant bit of the first byte first (row-event bitmaps). */
    BitSet bitmap(int bits) {
        int n = (bits + 7) / 8;
        need(n);
        BitSet set = new BitSet(bits);
        for (int i = 0; i < bits; i++) {
            if ((buf[pos + (i >> 3)] & (1 << (i & 7))) != 0) {
                set.set(i);
            }
        }
        pos += n;
        return set;
    }

    /** Bit {@code i} of the row-event bitmap that starts at {@code offset} (as {@link #bitmap} reads it). */
    boolean bit(int offset, int i) {
        return (buf[offset + (i >> 3)] & (1 << (i & 7))) != 0;
    }

    /** NUL-terminated UTF-8 string (identifiers in the binlog are in the system charset, utf8). */
    String cstring() {
        int start = pos;
        while (pos < end && buf[pos] != 0) {
            pos++;
        }
        if (pos >= end) {
            throw new BinlogFormatException("unterminated string at offset " + start);
        }
        String s = new String(buf, start, pos - start, StandardCharsets.UTF_8);
        pos++;
        return s;
    }

    String utf8(int n) {
        need(n);
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    byte peek() {
        need(1);
        return buf[pos];
    }
}
