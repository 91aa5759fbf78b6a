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
    void manyEventsGrowTheBufferAndLeaveAsOneBase64TextUntilReset() throws Exception {
        byte[] event = fixture();
        EventBuffer b = new EventBuffer(16);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 1000; i++) {
            b.event(header(event), body(event), true);
            expected.writeBytes(EventEncoder.event(header(event), body(event), true));
        }

        assertThat(b.size()).isEqualTo(expected.size());
        assertThat(Base64.getDecoder().decode(b.base64Stream().readAllBytes())).isEqualTo(expected.toByteArray());

        b.reset();
        b.event(header(event), body(event), false);
        assertThat(b.toByteArray()).isEqualTo(EventEncoder.event(header(event), body(event), false));
    }

    @Test
    void theBase64StreamIsTheBase64TextForEverySizeAndAnyReadPattern() throws Exception {
        java.util.Random random = new java.util.Random(7);
        // a chunk encodes 6,144 bytes: sizes around one and two chunks, and the last chunk 0, 1 or 2 bytes over a group
        for (int bodyLength : new int[] {0, 1, 2, 3, 100, 6125, 6126, 6127, 6128, 12269, 12270, 12271, 50_000}) {
            byte[] body = new byte[bodyLength];
            random.nextBytes(body);
            EventBuffer b = new EventBuffer(16);
            b.event(new EventHeader(1, 2, 3, 0, 4, 0), body, false);
            byte[] text = Base64.getEncoder().encode(b.toByteArray());
            assertThat(b.base64Length()).isEqualTo(text.length);

            assertThat(b.base64Stream().readAllBytes()).as("%d bytes, read whole", b.size()).isEqualTo(text);

            java.io.InputStream in = b.base64Stream(); // as a driver reads: odd-sized blocks, now and then a byte
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            byte[] block = new byte[8191];
            while (true) {
                if (random.nextInt(4) == 0) {
                    int c = in.read();
                    if (c == -1) {
                        break;
                    }
                    read.write(c);
                } else {
                    int n = in.read(block, 3, 1 + random.nextInt(8188));
                    if (n == -1) {
                        break;
                    }
                    read.write(block, 3, n);
                }
            }
            assertThat(read.toByteArray()).as("%d bytes, read in pieces", b.size()).isEqualTo(text);
            assertThat(in.read()).isEqualTo(-1);

            if (text.length > 10) { // mark, read on, reset: the same text again from the mark
                java.io.InputStream again = b.base64Stream();
                int at = random.nextInt(text.length - 1);
                again.readNBytes(at);
                again.mark(Integer.MAX_VALUE);
                again.readNBytes(random.nextInt(text.length - at));
                again.reset();
                assertThat(again.readAllBytes()).as("from %d after a reset", at)
                    .isEqualTo(Arrays.copyOfRange(text, at, text.length));
            }
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
