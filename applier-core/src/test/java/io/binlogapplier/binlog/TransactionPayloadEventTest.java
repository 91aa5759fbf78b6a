package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** MySQL TRANSACTION_PAYLOAD_EVENT (40): header fields, zstd or no compression, inner events. */
class TransactionPayloadEventTest {

    private static BinlogEvent.Payload payload(byte[] event) {
        return (BinlogEvent.Payload) new EventConverter().convert(event);
    }

    /** BEGIN, TABLE_MAP `shop`.`t1`, WRITE_ROWS (2, 'zstd'), XID 4243: what every payload fixture holds. */
    private static void assertTheInnerTransaction(List<BinlogEvent> events) {
        assertThat(events).hasSize(4);
        assertThat(((BinlogEvent.Query) events.get(0)).sqlForClassification()).isEqualTo("BEGIN");
        TableMap map = ((BinlogEvent.TableMapped) events.get(1)).map();
        assertThat(map.schema() + "." + map.table()).isEqualTo("shop.t1");
        BinlogEvent.Rows rows = (BinlogEvent.Rows) events.get(2);
        assertThat(rows.kind()).isEqualTo(RowsKind.INSERT);
        assertThat(rows.rows()).hasSize(1);
        assertThat(rows.rows().get(0)[0]).isEqualTo(2L);
        assertThat((byte[]) rows.rows().get(0)[1]).isEqualTo("zstd".getBytes(StandardCharsets.UTF_8));
        assertThat(((BinlogEvent.Xid) events.get(3)).xid()).isEqualTo(4243);
    }

    @Test
    void zstdPayloadDecompressesToBeginTableMapRowsAndXid() {
        BinlogEvent.Payload p = payload(HexFixtures.load("mysql80_transaction_payload_zstd"));

        assertThat(p.header().type()).isEqualTo(EventConverter.TRANSACTION_PAYLOAD);
        assertThat(p.header().nextPosition()).isEqualTo(1580);
        assertTheInnerTransaction(p.events());
    }

    @Test
    void uncompressedPayloadOfCompressionType255HoldsTheSameEvents() {
        BinlogEvent.Payload p = payload(HexFixtures.load("mysql80_transaction_payload_uncompressed"));

        assertTheInnerTransaction(p.events());
    }

    @Test
    void payloadCompressedByZstdAtTestTimeDecodesTheSame() {
        byte[] inner = innerEvents(HexFixtures.load("mysql80_transaction_payload_uncompressed"));
        byte[] compressed = Zstd.compress(inner, 3);

        ByteArrayOutputStream body = new ByteArrayOutputStream();
        field(body, 2, 0);                  // compression type 0 = zstd
        field(body, 3, inner.length);       // uncompressed size
        field(body, 1, compressed.length);  // payload size
        body.write(0);                      // end of header fields
        body.writeBytes(compressed);
        BinlogEvent.Payload p = payload(withBody(HexFixtures.load("mysql80_transaction_payload_zstd"),
            body.toByteArray()));

        assertTheInnerTransaction(p.events());
    }

    @Test
    void anUnknownCompressionTypeIsUnsupportedRatherThanMisread() {
        byte[] event = HexFixtures.load("mysql80_transaction_payload_zstd");
        assertThat(event[19 + 2]).as("compression type value").isEqualTo((byte) 0);
        event[19 + 2] = 1;

        BinlogEvent e = new EventConverter().convert(event);

        assertThat(e).isInstanceOf(BinlogEvent.Unsupported.class);
    }

    /** The bytes after the type-length-value header fields (ended by field type 0). */
    private static byte[] innerEvents(byte[] event) {
        ByteReader r = new ByteReader(event, 19, event.length);
        while (true) {
            long type = r.packed();
            if (type == 0) {
                return r.rest();
            }
            r.skip((int) r.packed());
        }
    }

    /** One header field as MySQL writes it: type, length of the value, value; all packed integers. */
    private static void field(ByteArrayOutputStream out, int type, long value) {
        byte[] v = packed(value);
        out.writeBytes(packed(type));
        out.writeBytes(packed(v.length));
        out.writeBytes(v);
    }

    private static byte[] packed(long v) {
        if (v < 251) {
            return new byte[] {(byte) v};
        }
        if (v < 1 << 16) {
            return new byte[] {(byte) 0xfc, (byte) v, (byte) (v >> 8)};
        }
        return new byte[] {(byte) 0xfd, (byte) v, (byte) (v >> 8), (byte) (v >> 16)};
    }

    /** The event's 19-byte header with its length field set for {@code body}, then {@code body}. */
    private static byte[] withBody(byte[] event, byte[] body) {
        byte[] out = Arrays.copyOf(event, 19 + body.length);
        ByteBuffer.wrap(out, 9, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(out.length);
        System.arraycopy(body, 0, out, 19, body.length);
        return out;
    }
}
