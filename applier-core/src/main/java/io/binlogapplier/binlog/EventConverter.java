package io.binlogapplier.binlog;

import com.github.luben.zstd.Zstd;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns raw events (header + body bytes without checksum) into {@link BinlogEvent}s, in stream
 * order. Keeps the table maps of the stream so rows events can be decoded; not thread-safe (one
 * per reader connection, on the reader thread).
 */
public final class EventConverter {
    /** Raw event type codes (Log_event_type in MySQL/MariaDB). */
    static final int QUERY = 2;
    static final int STOP = 3;
    static final int ROTATE = 4;
    static final int INTVAR = 5;
    static final int RAND = 13;
    static final int USER_VAR = 14;
    static final int FORMAT_DESCRIPTION = 15;
    static final int XID = 16;
    static final int TABLE_MAP = 19;
    static final int WRITE_ROWS_V1 = 23;
    static final int UPDATE_ROWS_V1 = 24;
    static final int DELETE_ROWS_V1 = 25;
    static final int INCIDENT = 26;
    static final int HEARTBEAT = 27;
    static final int IGNORABLE = 28;
    static final int ROWS_QUERY = 29;
    static final int WRITE_ROWS_V2 = 30;
    static final int UPDATE_ROWS_V2 = 31;
    static final int DELETE_ROWS_V2 = 32;
    static final int GTID = 33;
    static final int ANONYMOUS_GTID = 34;
    static final int PREVIOUS_GTIDS = 35;
    static final int TRANSACTION_CONTEXT = 36;
    static final int VIEW_CHANGE = 37;
    static final int XA_PREPARE = 38;
    static final int PARTIAL_UPDATE_ROWS = 39;
    static final int TRANSACTION_PAYLOAD = 40;
    static final int HEARTBEAT_V2 = 41;
    static final int GTID_TAGGED = 42;
    static final int ANNOTATE_ROWS = 160;
    static final int BINLOG_CHECKPOINT = 161;
    static final int MARIADB_GTID = 162;
    static final int MARIADB_GTID_LIST = 163;
    static final int START_ENCRYPTION = 164;

    private static final int HEADER_LENGTH = 19;
    /** A table id table maps are dropped from memory after; a new file or format event clears all. */
    private static final int MAX_TABLE_MAPS = 100_000;

    private final Map<Long, TableMap> tableMaps = new HashMap<>();
    /** The body each table map was decoded from, to recognise a repeated one. */
    private final Map<Long, byte[]> tableMapBodies = new HashMap<>();
    private final boolean keepBodies;
    private final java.util.function.BooleanSupplier lazyRows;

    public EventConverter() {
        this(false);
    }

    /** @param keepBodies keep raw rows-event bodies (rows applied as BINLOG statements need them) */
    public EventConverter(boolean keepBodies) {
        this(keepBodies, false);
    }

    /**
     * @param keepBodies keep raw rows-event bodies (rows applied as BINLOG statements need them)
     * @param lazyRows decode row values only when first read (the bodies are kept for that)
     */
    public EventConverter(boolean keepBodies, boolean lazyRows) {
        this(keepBodies, () -> lazyRows);
    }

    /** As {@link #EventConverter(boolean, boolean)}, asked at each rows event (workers: auto). */
    public EventConverter(boolean keepBodies, java.util.function.BooleanSupplier lazyRows) {
        this.keepBodies = keepBodies;
        this.lazyRows = lazyRows;
    }

    /** Forget table maps: table ids are only valid within one binlog file. */
    public void reset() {
        tableMaps.clear();
        tableMapBodies.clear();
    }

    public BinlogEvent convert(EventHeader h, byte[] body) {
        int type = h.type();
        switch (type) {
            case QUERY:
                return EventBodyParser.query(h, body);
            case FORMAT_DESCRIPTION:
                reset();
                return EventBodyParser.formatDescription(h, body);
            case XID:
                return EventBodyParser.xid(h, body);
            case TABLE_MAP: {
                // Every statement repeats its table maps: an unchanged one is the object decoded before.
                long tableId = body.length >= 6 ? new ByteReader(body).uLE(6) : -1;
                TableMap known = tableMaps.get(tableId);
                if (known != null && java.util.Arrays.equals(tableMapBodies.get(tableId), body)) {
                    return new BinlogEvent.TableMapped(h, known);
                }
                TableMap map = EventBodyParser.tableMap(body);
                if (!keepBodies) {
                    map = withoutBody(map);
                }
                if (tableMaps.size() >= MAX_TABLE_MAPS) {
                    tableMaps.clear();
                    tableMapBodies.clear();
                }
                tableMaps.put(map.tableId(), map);
                tableMapBodies.put(map.tableId(), body);
                return new BinlogEvent.TableMapped(h, map);
            }
            case WRITE_ROWS_V1:
                return EventBodyParser.rows(h, body, RowsKind.INSERT, false, tableMaps::get, keepBodies, lazyRows.getAsBoolean());
            case UPDATE_ROWS_V1:
                return EventBodyParser.rows(h, body, RowsKind.UPDATE, false, tableMaps::get, keepBodies, lazyRows.getAsBoolean());
            case DELETE_ROWS_V1:
                return EventBodyParser.rows(h, body, RowsKind.DELETE, false, tableMaps::get, keepBodies, lazyRows.getAsBoolean());
            case WRITE_ROWS_V2:
                return EventBodyParser.rows(h, body, RowsKind.INSERT, true, tableMaps::get, keepBodies, lazyRows.getAsBoolean());
            case UPDATE_ROWS_V2:
                return EventBodyParser.rows(h, body, RowsKind.UPDATE, true, tableMaps::get, keepBodies, lazyRows.getAsBoolean());
            case DELETE_ROWS_V2:
                return EventBodyParser.rows(h, body, RowsKind.DELETE, true, tableMaps::get, keepBodies, lazyRows.getAsBoolean());
            case MARIADB_GTID:
                return EventBodyParser.mariadbGtid(h, body);
            case GTID:
                return EventBodyParser.mysqlGtid(h, body, false);
            case ANONYMOUS_GTID:
                return EventBodyParser.mysqlGtid(h, body, true);
            case ROTATE:
                return EventBodyParser.rotate(h, body);
            case INTVAR:
                return EventBodyParser.intVar(h, body);
            case RAND:
                return EventBodyParser.rand(h, body);
            case HEARTBEAT:
                return EventBodyParser.heartbeat(h, body);
            case HEARTBEAT_V2:
                return new BinlogEvent.Heartbeat(h, null);
            case TRANSACTION_PAYLOAD:
                return payload(h, body);
            case STOP, IGNORABLE, ROWS_QUERY, PREVIOUS_GTIDS, TRANSACTION_CONTEXT, VIEW_CHANGE, ANNOTATE_ROWS,
                 BINLOG_CHECKPOINT, MARIADB_GTID_LIST, START_ENCRYPTION:
                return new BinlogEvent.Ignorable(h, "event type " + type);
            case USER_VAR:
                return new BinlogEvent.Unsupported(h, "a statement-format statement that uses a user variable",
                    "set binlog_format=ROW for every session on the source (SET GLOBAL binlog_format=ROW and reconnect clients)");
            case XA_PREPARE:
                return new BinlogEvent.Unsupported(h, "an XA PREPARE (XA transactions)",
                    "binlog-applier does not apply XA transactions, committed or not: let the native replica apply this part"
                        + " of the binlog (handback, then adopt: docs/migration.md), or set-position past it if the target must"
                        + " not have it");
            case PARTIAL_UPDATE_ROWS:
                return new BinlogEvent.Unsupported(h, "a partial JSON update (binlog_row_value_options=PARTIAL_JSON)",
                    "set binlog_row_value_options='' on the source");
            case GTID_TAGGED:
                return new BinlogEvent.Unsupported(h, "a tagged GTID (MySQL 8.4 gtid_next with a tag)",
                    "stop writing tagged GTIDs on the source");
            case INCIDENT:
                return new BinlogEvent.Unsupported(h, "an INCIDENT event (the source lost changes it could not log)",
                    "re-seed the target from a fresh copy of the source");
            default:
                if (type >= 165 && type <= 171) {
                    return new BinlogEvent.Unsupported(h, "a compressed MariaDB event (type " + type + ")",
                        "set log_bin_compress=OFF on the source");
                }
                if (h.ignorable()) {
                    return new BinlogEvent.Ignorable(h, "ignorable event type " + type);
                }
                return new BinlogEvent.Unsupported(h, "binlog event type " + type,
                    "this event is not supported; use binlog_format=ROW and no LOAD DATA in statement format");
        }
    }

    /**
     * MySQL 8.0.20+ TRANSACTION_PAYLOAD_EVENT: type-length-value header fields (1 payload size,
     * 2 compression type: 0 = zstd, 255 = none, 3 uncompressed size) ended by 0, then the payload: the
     * transaction's events without checksums.
     */
    BinlogEvent payload(EventHeader h, byte[] body) {
        ByteReader r = new ByteReader(body);
        long payloadSize = -1;
        long compression = -1;
        long uncompressedSize = -1;
        while (true) {
            int field = (int) r.packed();
            if (field == 0) {
                break;
            }
            int length = (int) r.packed();
            switch (field) {
                case 1 -> payloadSize = r.packed();
                case 2 -> compression = r.packed();
                case 3 -> uncompressedSize = r.packed();
                default -> r.skip(length);
            }
        }
        byte[] compressed = payloadSize >= 0 ? r.bytes((int) payloadSize) : r.rest();
        long size;
        if (compression == 0) {
            if (uncompressedSize < 0) {
                throw new BinlogFormatException("compressed transaction without a usable uncompressed size");
            }
            size = uncompressedSize;
        } else if (compression == 255) {
            size = compressed.length;
        } else {
            return new BinlogEvent.Unsupported(h, "a transaction payload compressed with type " + compression,
                "set binlog_transaction_compression=OFF on the source");
        }
        boolean zstd = compression == 0;
        // Decompressed and decoded as it is iterated (issue 17, #7): the assembler cuts the transaction
        // into parts like any large one, so a payload of any uncompressed size fits the heap.
        return new BinlogEvent.Payload(h, () -> new PayloadEvents(compressed, zstd, size));
    }

    /** The inner events of one payload, read from a (zstd) stream one at a time. */
    private final class PayloadEvents implements java.util.Iterator<BinlogEvent> {
        private final java.io.InputStream in;
        private final long size;
        private long read;

        PayloadEvents(byte[] compressed, boolean zstd, long size) {
            java.io.InputStream raw = new java.io.ByteArrayInputStream(compressed);
            try {
                this.in = zstd ? new com.github.luben.zstd.ZstdInputStream(raw) : raw;
            } catch (java.io.IOException e) {
                throw new BinlogFormatException("compressed transaction: " + e.getMessage());
            }
            this.size = size;
        }

        @Override
        public boolean hasNext() {
            if (read < size) {
                return true;
            }
            try {
                if (in.read() >= 0) {
                    throw new BinlogFormatException("compressed transaction holds more than its uncompressed size "
                        + size);
                }
                in.close();
            } catch (java.io.IOException e) {
                throw new BinlogFormatException("compressed transaction: " + e.getMessage());
            }
            return false;
        }

        @Override
        public BinlogEvent next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            byte[] head = readFully(HEADER_LENGTH);
            EventHeader ih = header(new ByteReader(head));
            long bodyLength = ih.eventLength() - HEADER_LENGTH;
            if (bodyLength < 0 || read + bodyLength > size) {
                throw new BinlogFormatException("an event inside a compressed transaction says it has "
                    + ih.eventLength() + " bytes, more than the " + (size - read + HEADER_LENGTH) + " left");
            }
            return convert(ih, readFully((int) bodyLength));
        }

        private byte[] readFully(int n) {
            if (read + n > size) {
                throw new BinlogFormatException("compressed transaction ends inside an event (" + (size - read)
                    + " bytes left, " + n + " needed)");
            }
            try {
                byte[] b = in.readNBytes(n);
                if (b.length != n) {
                    throw new BinlogFormatException("compressed transaction decompresses to " + (read + b.length)
                        + " bytes, less than its uncompressed size " + size);
                }
                read += n;
                return b;
            } catch (java.io.IOException e) {
                throw new BinlogFormatException("compressed transaction: " + e.getMessage());
            }
        }
    }

    private static TableMap withoutBody(TableMap m) {
        return new TableMap(m.tableId(), m.schema(), m.table(), m.types(), m.metas(), m.lengths(), m.nullable(),
            m.columnNames(), m.unsigned(), null);
    }

    static EventHeader header(ByteReader r) {
        long timestamp = r.u32();
        int type = r.u8();
        long serverId = r.u32();
        long length = r.u32();
        long next = r.u32();
        int flags = r.u16();
        return new EventHeader(timestamp, type, serverId, length, next, flags);
    }

    /** Parses a whole event (header + body, no checksum), as stored in byte fixtures. */
    public BinlogEvent convert(byte[] event) {
        ByteReader r = new ByteReader(event);
        EventHeader h = header(r);
        return convert(h, r.bytes((int) h.eventLength() - HEADER_LENGTH));
    }
}
