package io.binlogapplier.binlog;

import io.binlogapplier.position.SourceGtid;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.function.LongFunction;

/**
 * Pure parsers for the event bodies binlog-applier decodes itself (header already read, checksum
 * excluded). Each takes the body bytes and returns our own record; byte fixtures test them
 * without a server.
 */
public final class EventBodyParser {
    /** MariaDB Gtid_log_event flags2 (sql/log_event.h). */
    public static final int FL_STANDALONE = 1;
    public static final int FL_GROUP_COMMIT_ID = 2;
    public static final int FL_TRANSACTIONAL = 4;
    public static final int FL_ALLOW_PARALLEL = 8;
    public static final int FL_WAITED = 16;
    public static final int FL_DDL = 32;
    public static final int FL_PREPARED_XA = 64;
    public static final int FL_COMPLETED_XA = 128;

    private EventBodyParser() {
    }

    /**
     * MariaDB GTID_EVENT (162): seq_no u64, domain_id u32, flags2 u8, then commit_id u64 when
     * FL_GROUP_COMMIT_ID is set. mysql-binlog-connector-java 0.30.1 drops commit_id, which
     * conservative mode needs, so we read it here.
     */
    public static BinlogEvent.Gtid mariadbGtid(EventHeader header, byte[] body) {
        ByteReader r = new ByteReader(body);
        long seq = r.i64();
        long domain = r.u32();
        int flags = r.u8();
        long commitId = -1;
        if ((flags & FL_GROUP_COMMIT_ID) != 0) {
            commitId = r.i64();
        }
        SourceGtid gtid = new SourceGtid.Mariadb(domain, header.serverId(), seq);
        return new BinlogEvent.Gtid(header, gtid, flags, (flags & FL_STANDALONE) != 0, (flags & FL_DDL) != 0,
            (flags & FL_TRANSACTIONAL) != 0, commitId, -1, -1, 0);
    }

    /**
     * MySQL GTID_LOG_EVENT (33) and ANONYMOUS_GTID_LOG_EVENT (34), libbinlogevents control_events:
     * flags u8, sid[16], gno u64, then (5.7.6+) typecode 2, last_committed u64, sequence_number u64,
     * then (8.0.1+) immediate_commit_timestamp 7 bytes, whose bit 55 says original_commit_timestamp
     * (7 bytes) follows; timestamps are microseconds since the epoch.
     */
    public static BinlogEvent.Gtid mysqlGtid(EventHeader header, byte[] body, boolean anonymous) {
        ByteReader r = new ByteReader(body);
        int flags = r.u8();
        long msb = r.uBE(8);
        long lsb = r.uBE(8);
        long gno = r.i64();
        long lastCommitted = -1;
        long sequenceNumber = -1;
        long commitMicros = 0;
        if (r.hasRemaining() && r.peek() == 2) {
            r.skip(1);
            lastCommitted = r.i64();
            sequenceNumber = r.i64();
            if (r.remaining() >= 7) {
                long immediate = r.uLE(7);
                long original = immediate;
                if ((immediate & (1L << 55)) != 0) {
                    immediate &= ~(1L << 55);
                    original = r.uLE(7);
                }
                commitMicros = original != 0 ? original : immediate;
            }
        }
        SourceGtid gtid = anonymous ? null : new SourceGtid.Mysql(new UUID(msb, lsb), "", gno);
        // MySQL marks neither standalone DDL nor transactionality in the GTID event; the assembler
        // tells DDL by the absence of BEGIN.
        return new BinlogEvent.Gtid(header, gtid, flags, false, false, true, -1, lastCommitted, sequenceNumber,
            commitMicros);
    }

    /** QUERY_EVENT (2): post-header, status variables, default database, statement bytes. */
    public static BinlogEvent.Query query(EventHeader header, byte[] body) {
        ByteReader r = new ByteReader(body);
        long threadId = r.u32();
        r.skip(4); // exec_time
        int dbLength = r.u8();
        int errorCode = r.u16();
        int statusLength = r.u16();
        int statusEnd = r.position() + statusLength;
        QueryStatus status = queryStatus(new ByteReader(body, r.position(), statusEnd));
        r.skip(statusLength);
        String database = r.utf8(dbLength);
        r.skip(1); // NUL after the database name
        byte[] sql = r.rest();
        return new BinlogEvent.Query(header, threadId, errorCode, database, sql, status);
    }

    static QueryStatus queryStatus(ByteReader r) {
        Long flags2 = null;
        Long sqlMode = null;
        Integer client = null;
        Integer connection = null;
        Integer server = null;
        String timeZone = null;
        Integer incr = null;
        Integer offset = null;
        Integer dbCollation = null;
        Integer micros = null;
        Integer explicitDefaults = null;
        Integer utf8mb4 = null;
        loop:
        while (r.hasRemaining()) {
            int code = r.u8();
            switch (code) {
                case 0 -> flags2 = r.u32();
                case 1 -> sqlMode = r.i64();
                case 2 -> r.skip(r.u8() + 1); // Q_CATALOG_CODE, NUL-terminated
                case 3 -> {
                    incr = r.u16();
                    offset = r.u16();
                }
                case 4 -> {
                    client = r.u16();
                    connection = r.u16();
                    server = r.u16();
                }
                case 5 -> timeZone = r.utf8(r.u8());
                case 6 -> r.skip(r.u8()); // Q_CATALOG_NZ_CODE
                case 7 -> r.skip(2); // Q_LC_TIME_NAMES_CODE
                case 8 -> dbCollation = r.u16();
                case 9 -> r.skip(8); // Q_TABLE_MAP_FOR_UPDATE_CODE
                case 10 -> r.skip(4); // Q_MASTER_DATA_WRITTEN_CODE
                case 11 -> { // Q_INVOKER: user, host
                    r.skip(r.u8());
                    r.skip(r.u8());
                }
                case 12 -> { // Q_UPDATED_DB_NAMES
                    int count = r.u8();
                    if (count != 254) { // OVER_MAX_DBS_IN_EVENT_MTS: no names follow
                        for (int i = 0; i < count; i++) {
                            r.cstring();
                        }
                    }
                }
                case 13, 128 -> micros = r.u24(); // Q_MICROSECONDS (MySQL), Q_HRNOW (MariaDB)
                case 16 -> explicitDefaults = r.u8();
                case 17, 129 -> r.skip(8); // Q_DDL_LOGGED_WITH_XID (MySQL), Q_XID (MariaDB)
                case 18 -> utf8mb4 = r.u16();
                case 19, 20, 130 -> r.skip(1); // require PK, table encryption, MariaDB Q_GTID_FLAGS3
                default -> {
                    // Unknown code: its length is unknown, so stop as the server does ("status vars are
                    // written in growing order of code"); the block length still bounds the statement.
                    break loop;
                }
            }
        }
        return new QueryStatus(flags2, sqlMode, client, connection, server, timeZone, incr, offset, dbCollation,
            micros, explicitDefaults, utf8mb4);
    }

    /** FORMAT_DESCRIPTION_EVENT (15): binlog version u16, server version (50 bytes, NUL padded), …. */
    public static BinlogEvent.FormatDescription formatDescription(EventHeader header, byte[] body) {
        ByteReader r = new ByteReader(body);
        r.skip(2);
        byte[] version = r.bytes(Math.min(50, r.remaining()));
        int n = 0;
        while (n < version.length && version[n] != 0) {
            n++;
        }
        byte[] raw = EventEncoder.event(header, withoutCreated(body), false);
        if (EventFramer.formatDescriptionChecksumLength(body) == 4) {
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(raw, 0, raw.length - 4);
            EventEncoder.putLE(raw, raw.length - 4, crc.getValue(), 4);
        }
        return new BinlogEvent.FormatDescription(header, new String(version, 0, n,
            java.nio.charset.StandardCharsets.UTF_8), raw);
    }

    /** Where {@code created} (u32) sits in a FORMAT_DESCRIPTION body: after the version fields. */
    private static final int FDE_CREATED = 2 + 50;

    /**
     * The body with {@code created} = 0 and, when the event carries its own CRC32, that checksum
     * recomputed. The first binlog after a source restart has created != 0, and a server applying
     * such an FDE rolls back the session's active transaction ("Rolling back unfinished transaction
     * (no COMMIT or ROLLBACK in relay log)", Format_description_log_event::do_apply_event) unless it
     * tells a BINLOG statement apart: MySQL 5.7+ and 8.x test {@code !thd->rli_fake}, older servers
     * did not. The raw FDE only goes into BINLOG statements, sent inside the unit's transaction, so
     * it is sent as a rotated binlog's FDE (created 0), which no server acts on (issue 17, #9).
     */
    static byte[] withoutCreated(byte[] body) {
        if (body.length < FDE_CREATED + 4) {
            return body;
        }
        byte[] out = body.clone();
        java.util.Arrays.fill(out, FDE_CREATED, FDE_CREATED + 4, (byte) 0);
        return out;
    }

    /** XID_EVENT (16). */
    public static BinlogEvent.Xid xid(EventHeader header, byte[] body) {
        return new BinlogEvent.Xid(header, new ByteReader(body).i64());
    }

    /** INTVAR_EVENT (5): type u8, value u64. */
    public static BinlogEvent.IntVar intVar(EventHeader header, byte[] body) {
        ByteReader r = new ByteReader(body);
        return new BinlogEvent.IntVar(header, r.u8(), r.i64());
    }

    /** RAND_EVENT (13): seed1 u64, seed2 u64. */
    public static BinlogEvent.Rand rand(EventHeader header, byte[] body) {
        ByteReader r = new ByteReader(body);
        return new BinlogEvent.Rand(header, r.i64(), r.i64());
    }

    /** ROTATE_EVENT (4): position u64, then the next file's name. */
    public static BinlogEvent.Rotate rotate(EventHeader header, byte[] body) {
        ByteReader r = new ByteReader(body);
        long position = r.i64();
        return new BinlogEvent.Rotate(header, r.utf8(r.remaining()), position);
    }

    /** HEARTBEAT_LOG_EVENT (27): the current file name; the header's next position is the offset. */
    public static BinlogEvent.Heartbeat heartbeat(EventHeader header, byte[] body) {
        return new BinlogEvent.Heartbeat(header, new ByteReader(body).utf8(body.length));
    }

    /**
     * Rows events: WRITE/UPDATE/DELETE_ROWS v1 (23-25, MariaDB) and v2 (30-32, MySQL 5.6+), which add
     * a length-prefixed extra-info block. Cells are decoded with the TABLE_MAP that precedes them.
     *
     * @param tableMaps the table maps seen so far on this stream, by table id
     */
    public static BinlogEvent.Rows rows(EventHeader header, byte[] body, RowsKind kind, boolean v2,
                                        LongFunction<TableMap> tableMaps) {
        return rows(header, body, kind, v2, tableMaps, false);
    }

    /** As {@link #rows(EventHeader, byte[], RowsKind, boolean, LongFunction)}, keeping the raw body if asked. */
    public static BinlogEvent.Rows rows(EventHeader header, byte[] body, RowsKind kind, boolean v2,
                                        LongFunction<TableMap> tableMaps, boolean keepBody) {
        return rows(header, body, kind, v2, tableMaps, keepBody, false);
    }

    /**
     * As {@link #rows(EventHeader, byte[], RowsKind, boolean, LongFunction, boolean)}; with
     * {@code lazy} the images are only counted now and decoded when first read ({@link RowImages}).
     */
    public static BinlogEvent.Rows rows(EventHeader header, byte[] body, RowsKind kind, boolean v2,
                                        LongFunction<TableMap> tableMaps, boolean keepBody, boolean lazy) {
        ByteReader r = new ByteReader(body);
        long tableId = r.uLE(6);
        int flags = r.u16();
        if (v2) {
            int extraLength = r.u16();
            r.skip(extraLength - 2);
        }
        int columns = (int) r.packed();
        TableMap map = tableMaps.apply(tableId);
        if (map == null) {
            throw new BinlogFormatException("rows event for table id " + tableId
                + " without a TABLE_MAP before it (the stream started inside a transaction?)");
        }
        if (map.columnCount() != columns) {
            throw new BinlogFormatException("rows event for " + map + " has " + columns + " columns, its TABLE_MAP "
                + map.columnCount());
        }
        BitSet before = r.bitmap(columns);
        BitSet after = kind == RowsKind.UPDATE ? r.bitmap(columns) : before;
        boolean update = kind == RowsKind.UPDATE;
        List<Object[]> rows = lazy ? new RowImages(body, r.position(), map, update, before, after)
            : RowImages.decode(body, r.position(), map, update, before, after);
        return new BinlogEvent.Rows(header, kind, tableId, flags, before, after, rows, body.length,
            keepBody ? body : null);
    }

    /**
     * TABLE_MAP_EVENT (19): table id, flags, schema and table names, column types, the metadata
     * block (one to two bytes per type), the nullability bitmap, then optional metadata
     * ({@code binlog_row_metadata=FULL}) as type-length-value fields.
     */
    public static TableMap tableMap(byte[] body) {
        ByteReader r = new ByteReader(body);
        long tableId = r.uLE(6);
        r.skip(2); // flags
        int schemaLength = r.u8();
        String schema = r.utf8(schemaLength);
        r.skip(1);
        int tableLength = r.u8();
        String table = r.utf8(tableLength);
        r.skip(1);
        int columns = (int) r.packed();
        int[] raw = new int[columns];
        for (int i = 0; i < columns; i++) {
            raw[i] = r.u8();
        }
        int metaLength = (int) r.packed();
        int metaEnd = r.position() + metaLength;
        int[] metas = new int[columns];
        for (int i = 0; i < columns; i++) {
            metas[i] = switch (raw[i]) {
                case BinlogType.FLOAT, BinlogType.DOUBLE, BinlogType.BLOB, BinlogType.JSON, BinlogType.GEOMETRY,
                     BinlogType.TIME2, BinlogType.DATETIME2, BinlogType.TIMESTAMP2,
                     BinlogType.TINY_BLOB, BinlogType.MEDIUM_BLOB, BinlogType.LONG_BLOB, BinlogType.VECTOR -> r.u8();
                case BinlogType.BIT, BinlogType.VARCHAR, BinlogType.VAR_STRING, BinlogType.NEWDECIMAL -> r.u16();
                // big-endian: real type first, then length
                case BinlogType.SET, BinlogType.ENUM, BinlogType.STRING -> (int) r.uBE(2);
                case BinlogType.DECIMAL, BinlogType.TINY, BinlogType.SHORT, BinlogType.LONG, BinlogType.NULL,
                     BinlogType.TIMESTAMP, BinlogType.LONGLONG, BinlogType.INT24, BinlogType.DATE, BinlogType.TIME,
                     BinlogType.DATETIME, BinlogType.YEAR, BinlogType.NEWDATE -> 0;
                default -> throw new BinlogFormatException("table `" + schema + "`.`" + table + "` column " + (i + 1)
                    + " has binlog type " + raw[i] + ", which binlog-applier does not know (MariaDB column"
                    + " compression or a newer type?)");
            };
        }
        if (r.position() != metaEnd) {
            throw new BinlogFormatException("table map metadata of `" + schema + "`.`" + table + "` is " + metaLength
                + " bytes, read " + (r.position() - (metaEnd - metaLength)));
        }
        int[] types = new int[columns];
        int[] lengths = new int[columns];
        for (int i = 0; i < columns; i++) {
            int[] resolved = TableMap.resolveStringType(raw[i], metas[i]);
            types[i] = resolved[0];
            lengths[i] = resolved[1];
        }
        BitSet nullable = r.bitmap(columns);
        List<String> names = null;
        boolean[] unsigned = null;
        while (r.hasRemaining()) {
            int field = r.u8();
            int length = (int) r.packed();
            ByteReader f = new ByteReader(body, r.position(), r.position() + length);
            r.skip(length);
            if (field == 1) {
                unsigned = signedness(f, types);
            } else if (field == 4) {
                names = new ArrayList<>(columns);
                while (f.hasRemaining()) {
                    names.add(f.utf8((int) f.packed()));
                }
                names = List.copyOf(names);
            }
        }
        return new TableMap(tableId, schema, table, types, metas, lengths, nullable, names, unsigned, body);
    }

    /**
     * SIGNEDNESS optional metadata: one bit per numeric column, most significant bit first, set
     * when UNSIGNED. "Numeric" is MySQL's {@code is_numeric_type}: TINYINT..BIGINT, DECIMAL, FLOAT,
     * DOUBLE and not YEAR (mysql-binlog-connector-java 0.30.1 counts YEAR and so shifts every later
     * column's flag).
     */
    static boolean[] signedness(ByteReader f, int[] types) {
        boolean[] unsigned = new boolean[types.length];
        int bit = 0;
        int current = 0;
        for (int i = 0; i < types.length; i++) {
            int t = types[i];
            boolean numeric = BinlogType.isInteger(t) || t == BinlogType.NEWDECIMAL || t == BinlogType.FLOAT
                || t == BinlogType.DOUBLE || t == BinlogType.DECIMAL;
            if (!numeric) {
                continue;
            }
            if (bit % 8 == 0) {
                current = f.hasRemaining() ? f.u8() : 0;
            }
            unsigned[i] = (current & (0x80 >> (bit % 8))) != 0;
            bit++;
        }
        return unsigned;
    }
}
