package io.binlogapplier.binlog;

import io.binlogapplier.position.MysqlGtidSet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The COM_BINLOG_DUMP_GTID request for a MySQL GTID set that has tags ({@code uuid:tag:1-5}, MySQL
 * 8.3+), which mysql-binlog-connector-java 0.30.1 cannot parse or encode. Pure.
 *
 * <p>Layout (MySQL's {@code com_binlog_dump_gtid} in {@code sql/rpl_source.cc} reads it in this
 * order; the protocol documentation lists the same fields): command byte 0x1e, flags (2 bytes LE, 0:
 * blocking), server_id (4), binlog file name length (4) and name, position (8), GTID data size (4)
 * and data. The data is {@code Gtid_set::encode} ({@code sql/rpl_gtid_set.cc}): the first 8 bytes
 * are {@code encode_nsids_format}, which for the tagged format is {@code (1 << 56) | (n << 8) | 1};
 * then for each (uuid, tag) entry the 16 uuid bytes, the tag as a one-byte length {@code len << 1}
 * (mysql::serialization's variable-length integer, one byte for the at most 32 characters of a tag)
 * followed by its lower-case characters (length 0 for the untagged entry of a uuid), the interval
 * count (8), and each interval as start and end-exclusive (8 + 8). A server before 8.3 rejects the
 * tagged format ("Malformed GTID_set encoding").
 */
public final class GtidDumpRequest {
    static final int COM_BINLOG_DUMP_GTID = 0x1e;
    private static final int MAX_TAG_LENGTH = 32;

    private GtidDumpRequest() {
    }

    /** True when {@code gtids} (a MySQL GTID set) has a tagged member, so the library cannot send it. */
    public static boolean tagged(String gtids) {
        if (!MysqlGtidSet.looksLikeMysql(gtids)) {
            return false;
        }
        for (String key : MysqlGtidSet.parse(gtids).intervals().keySet()) {
            if (key.indexOf(':') >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The whole command packet body (what follows the 4-byte packet header). */
    public static byte[] command(long serverId, String file, long position, String gtids) {
        byte[] name = file.getBytes(StandardCharsets.UTF_8);
        byte[] data = encode(MysqlGtidSet.parse(gtids));
        ByteArrayOutputStream out = new ByteArrayOutputStream(23 + name.length + data.length);
        out.write(COM_BINLOG_DUMP_GTID);
        le(out, 0, 2);
        le(out, serverId, 4);
        le(out, name.length, 4);
        out.writeBytes(name);
        le(out, position, 8);
        le(out, data.length, 4);
        out.writeBytes(data);
        return out.toByteArray();
    }

    /** Gtid_set::encode in the tagged format (every entry carries a tag field). */
    static byte[] encode(MysqlGtidSet set) {
        Map<String, List<long[]>> entries = set.intervals();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        le(out, (1L << 56) | ((long) entries.size() << 8) | 1L, 8);
        for (Map.Entry<String, List<long[]>> e : entries.entrySet()) {
            String key = e.getKey();
            int colon = key.indexOf(':');
            UUID uuid = UUID.fromString(colon < 0 ? key : key.substring(0, colon));
            byte[] tag = (colon < 0 ? "" : key.substring(colon + 1)).getBytes(StandardCharsets.US_ASCII);
            if (tag.length > MAX_TAG_LENGTH) {
                throw new IllegalArgumentException("GTID tag '" + key.substring(colon + 1) + "' is longer than "
                    + MAX_TAG_LENGTH + " characters");
            }
            be(out, uuid.getMostSignificantBits());
            be(out, uuid.getLeastSignificantBits());
            out.write(tag.length << 1);
            out.writeBytes(tag);
            le(out, e.getValue().size(), 8);
            for (long[] iv : e.getValue()) {
                le(out, iv[0], 8);
                le(out, iv[1] + 1, 8);
            }
        }
        return out.toByteArray();
    }

    private static void le(ByteArrayOutputStream out, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }

    private static void be(ByteArrayOutputStream out, long v) {
        for (int i = 7; i >= 0; i--) {
            out.write((int) (v >>> (8 * i)) & 0xFF);
        }
    }
}
