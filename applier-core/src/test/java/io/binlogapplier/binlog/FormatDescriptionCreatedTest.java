package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

/**
 * Issue 17, #9: the FORMAT_DESCRIPTION a BINLOG statement sends has {@code created} = 0, so that no
 * server rolls back the unit's open transaction when it applies it (Format_description_log_event::
 * do_apply_event rolls back an active transaction for an FDE with created != 0, unless the server
 * knows the event came in a BINLOG statement: MySQL 5.7+ test {@code thd->rli_fake}), and the
 * event's own CRC32 still matches.
 */
class FormatDescriptionCreatedTest {
    private static final int CREATED = 19 + 2 + 50;

    @Test
    void theFormatDescriptionSentInBinlogStatementsHasCreatedZeroAndAValidChecksum() {
        byte[] received = HexFixtures.load("mysql84_format_description_created");
        assertThat(ByteBuffer.wrap(received, CREATED, 4).order(ByteOrder.LITTLE_ENDIAN).getInt())
            .as("the fixture's created").isEqualTo(1709211500);

        BinlogEvent.FormatDescription f = (BinlogEvent.FormatDescription) new EventConverter().convert(received);
        byte[] raw = f.raw();

        assertThat(f.serverVersion()).isEqualTo("8.4.3");
        assertThat(raw).hasSameSizeAs(received);
        assertThat(ByteBuffer.wrap(raw, CREATED, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()).isZero();
        CRC32 crc = new CRC32();
        crc.update(raw, 0, raw.length - 4);
        assertThat(ByteBuffer.wrap(raw, raw.length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt())
            .isEqualTo((int) crc.getValue());
        assertThat(EventEncoder.checksums(raw)).isTrue();
        // nothing else changed
        byte[] expected = received.clone();
        Arrays.fill(expected, CREATED, CREATED + 4, (byte) 0);
        assertThat(Arrays.copyOf(raw, raw.length - 4)).isEqualTo(Arrays.copyOf(expected, expected.length - 4));
    }
}
