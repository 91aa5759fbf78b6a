package io.binlogapplier.binlog;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** The in-place event writer of the BINLOG apply method, against the per-event encoder. */
class EventBufferTest {
    private static final int HEADER = EventEncoder.HEADER_LENGTH;

    private static byte[] fixture() {
        return HexFixtures.load("mariadb_delete_rows_v1_nulls");
    }

    private static EventHeader header(byte[] event) {
        return EventConverter.header(new ByteReader(event));
    }

    private static byte[] body(byte[] event) {
        return Arrays.copyOfRange(event, HEADER, event.length);
    }

    @Test
    void anEventIsWrittenByteForByteAsTheEncoderWritesIt() {
        byte[] event = fixture();
        for (boolean checksum : new boolean[] {false, true}) {
            EventBuffer b = new EventBuffer(16);

            b.event(header(event), body(event), checksum);

            assertThat(b.toByteArray()).isEqualTo(EventEncoder.event(header(event), body(event), checksum));
        }
    }

    @Test
    void statementEndIsSetOrClearedInTheCopyAndTheChecksumCoversIt() {
        byte[] event = fixture();
        byte[] cleared = body(event);
        cleared[6] &= (byte) ~BinlogEvent.Rows.FLAG_STMT_END;
        byte[] set = body(event);
        set[6] |= (byte) BinlogEvent.Rows.FLAG_STMT_END;

        EventBuffer b = new EventBuffer(16);
        b.rowsEvent(header(event), set, true, false);
        b.rowsEvent(header(event), cleared, true, true);

        byte[] expected = concat(EventEncoder.event(header(event), cleared, true),
            EventEncoder.event(header(event), set, true));
        assertThat(b.toByteArray()).isEqualTo(expected);
        assertThat(set[6] & BinlogEvent.Rows.FLAG_STMT_END).as("the source body is left alone").isEqualTo(1);
        assertThat(cleared[6] & BinlogEvent.Rows.FLAG_STMT_END).isZero();
    }

    @Test
    void manyEventsGrowTheBufferAndLeaveAsOneBase64TextUntilReset() {
        byte[] event = fixture();
        EventBuffer b = new EventBuffer(16);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++) {
            b.event(header(event), body(event), true);
            expected.writeBytes(EventEncoder.event(header(event), body(event), true));
        }

        assertThat(b.size()).isEqualTo(expected.size());
        assertThat(Base64.getDecoder().decode(b.base64())).isEqualTo(expected.toByteArray());

        b.reset();
        b.event(header(event), body(event), false);
        assertThat(b.toByteArray()).isEqualTo(EventEncoder.event(header(event), body(event), false));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
