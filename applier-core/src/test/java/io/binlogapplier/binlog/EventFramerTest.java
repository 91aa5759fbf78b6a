package io.binlogapplier.binlog;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.deserialization.ChecksumType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Cutting the stream into events: the body without its checksum, which must match. */
class EventFramerTest {
    private static final int HEADER = EventEncoder.HEADER_LENGTH;

    private static byte[] fixture() {
        return HexFixtures.load("mariadb_delete_rows_v1_nulls");
    }

    @SuppressWarnings("deprecation")
    private static EventFramer framer() {
        EventFramer f = new EventFramer();
        f.setChecksumType(ChecksumType.CRC32);
        return f;
    }

    @Test
    void anEventComesWithItsBodyAloneWhenItsChecksumMatches() throws IOException {
        byte[] event = fixture();
        EventHeader h = EventConverter.header(new ByteReader(event));
        byte[] body = Arrays.copyOfRange(event, HEADER, event.length);
        byte[] stream = EventEncoder.event(h, body, true);
        stream = Arrays.copyOf(stream, stream.length * 2); // two events back to back
        System.arraycopy(stream, 0, stream, stream.length / 2, stream.length / 2);

        ByteArrayInputStream in = new ByteArrayInputStream(stream);
        EventFramer framer = framer();
        for (int i = 0; i < 2; i++) {
            Event e = framer.nextEvent(in);
            RawEvent raw = (RawEvent) e.getData();
            assertThat(raw.body()).isEqualTo(body);
            assertThat(raw.header().type()).isEqualTo(h.type());
        }
        assertThat(framer.nextEvent(in)).isNull();
    }

    @Test
    void aChangedByteOrAnEventShorterThanItsChecksumIsACorruptStream() {
        byte[] event = fixture();
        EventHeader h = EventConverter.header(new ByteReader(event));
        byte[] stream = EventEncoder.event(h, Arrays.copyOfRange(event, HEADER, event.length), true);
        // the timestamp (the header is covered too), the body's first and last byte, the checksum itself
        for (int at : new int[] {0, HEADER, stream.length - 5, stream.length - 1}) {
            byte[] bad = stream.clone();
            bad[at] ^= 0x01;
            assertThatThrownBy(() -> framer().nextEvent(new ByteArrayInputStream(bad)))
                .as("byte %d changed", at).isInstanceOf(IOException.class)
                .cause().isInstanceOf(BinlogFormatException.class).hasMessageContaining("checksum mismatch");
        }

        byte[] tiny = Arrays.copyOf(stream, HEADER + 2); // says 21 bytes: too few for a checksum
        EventEncoder.putLE(tiny, 9, tiny.length, 4);
        assertThatThrownBy(() -> framer().nextEvent(new ByteArrayInputStream(tiny)))
            .isInstanceOf(IOException.class).cause().hasMessageContaining("shorter than its checksum");
    }
}
