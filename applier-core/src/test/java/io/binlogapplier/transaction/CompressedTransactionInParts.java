package io.binlogapplier.transaction;

import com.github.luben.zstd.ZstdOutputStream;
import io.binlogapplier.binlog.EventConverter;
import io.binlogapplier.binlog.HexFixtures;
import io.binlogapplier.filter.ReplicationFilter;
import io.binlogapplier.filter.RowEventFilter;
import io.binlogapplier.position.BinlogCoordinates;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Run in a JVM with a small heap by {@link CompressedTransactionInPartsTest}: a zstd
 * TRANSACTION_PAYLOAD_EVENT whose uncompressed events are several times the heap (BEGIN, TABLE_MAP,
 * {@code copies} WRITE_ROWS of 70 KiB each, XID) goes through the row filter stage and the
 * assembler, which must pass it on in parts. Prints {@code parts=N rows=M}; exits 0.
 */
public final class CompressedTransactionInParts {
    private CompressedTransactionInParts() {
    }

    public static void main(String[] args) throws Exception {
        int copies = Integer.parseInt(args[0]);
        long partBytes = Long.parseLong(args[1]);
        byte[] rows = HexFixtures.load("mysql80_write_rows_json_large_object");
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        long uncompressed = 0;
        try (ZstdOutputStream z = new ZstdOutputStream(compressed, 1)) {
            for (String f : new String[] {"mysql80_query_begin", "mysql80_table_map_docs"}) {
                byte[] e = HexFixtures.load(f);
                z.write(e);
                uncompressed += e.length;
            }
            for (int i = 0; i < copies; i++) {
                z.write(rows);
                uncompressed += rows.length;
            }
            byte[] xid = HexFixtures.load("mysql80_xid");
            z.write(xid);
            uncompressed += xid.length;
        }
        byte[] event = payloadEvent(compressed.toByteArray(), uncompressed);
        long[] counts = new long[2];
        TransactionAssembler assembler = new TransactionAssembler("binlog.000042", partBytes,
            new TransactionAssembler.Sink() {
                @Override
                public void transaction(Transaction part) {
                    counts[0]++;
                    for (Change c : part.changes()) {
                        if (c instanceof Change.Rows r) {
                            counts[1] += r.rowCount();
                        }
                    }
                }

                @Override
                public void heartbeat(BinlogCoordinates position, long timestampSeconds) {
                }
            });
        RowEventFilter filter = new RowEventFilter(new ReplicationFilter(io.binlogapplier.config.FilterConfig.NONE, "binlog_applier"), assembler::accept);
        EventConverter converter = new EventConverter();
        filter.accept(converter.convert(HexFixtures.load("mysql80_gtid_one_timestamp")));
        filter.accept(converter.convert(event));
        System.out.println("parts=" + counts[0] + " rows=" + counts[1] + " uncompressed=" + uncompressed
            + " compressed=" + compressed.size() + " maxHeap=" + Runtime.getRuntime().maxMemory());
    }

    /** TRANSACTION_PAYLOAD_EVENT: header fields 2 (zstd), 3 (uncompressed size), 1 (payload size), 0, payload. */
    private static byte[] payloadEvent(byte[] payload, long uncompressed) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        field(body, 2, 0);
        field(body, 3, uncompressed);
        field(body, 1, payload.length);
        body.write(0);
        body.write(payload);
        int length = 19 + body.size();
        ByteBuffer h = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(1_709_211_600).put((byte) 40).putInt(1).putInt(length).putInt(2000 + length).putShort((short) 0);
        h.put(body.toByteArray());
        return h.array();
    }

    /** A header field: type, the byte count of the packed value, the packed value (net_field_length). */
    private static void field(ByteArrayOutputStream out, int type, long value) {
        byte[] packed;
        if (value < 251) {
            packed = new byte[] {(byte) value};
        } else if (value < 1 << 16) {
            packed = new byte[] {(byte) 0xfc, (byte) value, (byte) (value >> 8)};
        } else if (value < 1 << 24) {
            packed = new byte[] {(byte) 0xfd, (byte) value, (byte) (value >> 8), (byte) (value >> 16)};
        } else {
            packed = new byte[9];
            packed[0] = (byte) 0xfe;
            for (int i = 0; i < 8; i++) {
                packed[1 + i] = (byte) (value >> (8 * i));
            }
        }
        out.write(type);
        out.write(packed.length);
        out.writeBytes(packed);
    }
}
