package io.binlogapplier.binlog;

import com.github.shyiko.mysql.binlog.MariadbGtidSet;
import com.github.shyiko.mysql.binlog.event.AnnotateRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidListEventData;
import com.github.shyiko.mysql.binlog.event.MySqlGtid;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.ChecksumType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import io.binlogapplier.position.SourceGtid;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Replaces mysql-binlog-connector-java's event decoding: the library keeps the network protocol
 * (handshake, dump request, heartbeats, packet framing) and hands each event's bytes here. We
 * cut the event into header and body, verify the CRC32 checksum, and pass {@link RawEvent}s on.
 *
 * <p>Why not the library's deserializers: they silently skip events they fail on, drop MariaDB's
 * commit_id, and decode several types lossily. The library still casts a few event types to its
 * own classes while tracking GTIDs and rotations, so for those we also build that object (the
 * "internal" half of {@link EventDataWrapper}); listeners only ever see the RawEvent.
 */
final class EventFramer extends EventDeserializer {
    private static final int HEADER_LENGTH = 19;
    private static final int FORMAT_DESCRIPTION = 15;

    private int checksumLength;

    /**
     * BinaryLogClient tells us the checksum algorithm it negotiated before the stream starts: the
     * source's first (artificial) ROTATE already carries a checksum, before any FORMAT_DESCRIPTION.
     */
    @Override
    @SuppressWarnings("deprecation")
    public void setChecksumType(ChecksumType checksumType) {
        checksumLength = checksumType.getLength();
    }

    @Override
    public Event nextEvent(ByteArrayInputStream in) throws IOException {
        if (in.peek() == -1) {
            return null;
        }
        byte[] headerBytes = in.read(HEADER_LENGTH);
        EventHeader header = EventConverter.header(new ByteReader(headerBytes));
        long bodyLength = header.eventLength() - HEADER_LENGTH;
        if (bodyLength < 0 || bodyLength > Integer.MAX_VALUE) {
            throw new IOException(new BinlogFormatException("event length " + header.eventLength() + " is impossible"));
        }
        byte[] body;
        if (header.type() == FORMAT_DESCRIPTION) {
            body = in.read((int) bodyLength); // kept whole: it ends with the algorithm and its own checksum
            checksumLength = formatDescriptionChecksumLength(body);
        } else if (checksumLength > 0) {
            // The body and its checksum read apart: no copy of every event without its last four bytes.
            if (bodyLength < checksumLength) {
                throw new IOException(new BinlogFormatException("event shorter than its checksum"));
            }
            body = in.read((int) bodyLength - checksumLength);
            verifyChecksum(header, headerBytes, body, in.readLong(4));
        } else {
            body = in.read((int) bodyLength);
        }
        EventHeaderV4 libraryHeader = new EventHeaderV4();
        EventType type = EventType.byEventNumber(header.type());
        libraryHeader.setEventType(type == null ? EventType.UNKNOWN : type);
        libraryHeader.setTimestamp(header.timestamp() * 1000L);
        libraryHeader.setServerId(header.serverId());
        libraryHeader.setEventLength(header.eventLength());
        libraryHeader.setNextPosition(header.nextPosition());
        libraryHeader.setFlags(header.flags());
        RawEvent raw = new RawEvent(header, body);
        EventData internal = libraryView(header, body);
        return new Event(libraryHeader, internal == null ? raw : new EventDataWrapper(internal, raw));
    }

    /**
     * FORMAT_DESCRIPTION ends with the checksum algorithm (1 byte: 0 none, 1 CRC32) and the event's
     * own checksum, on every server since MySQL 5.6.1 / MariaDB 5.3.
     */
    static int formatDescriptionChecksumLength(byte[] body) {
        if (body.length < 5) {
            return 0;
        }
        int algorithm = body[body.length - 5] & 0xFF;
        return algorithm == 1 ? 4 : 0;
    }

    private static void verifyChecksum(EventHeader header, byte[] headerBytes, byte[] body, long expected)
        throws IOException {
        CRC32 crc = new CRC32();
        crc.update(headerBytes);
        crc.update(body);
        if (crc.getValue() != expected) {
            throw new IOException(new BinlogFormatException("checksum mismatch in event type " + header.type()
                + " ending at source offset " + header.nextPosition() + ": the stream is corrupt"));
        }
    }

    /** The library's own object for the event types BinaryLogClient casts; null for the rest. */
    private static EventData libraryView(EventHeader header, byte[] body) {
        switch (header.type()) {
            case EventConverter.ROTATE -> {
                BinlogEvent.Rotate r = EventBodyParser.rotate(header, body);
                RotateEventData d = new RotateEventData();
                d.setBinlogFilename(r.file());
                d.setBinlogPosition(r.position());
                return d;
            }
            case EventConverter.QUERY -> {
                BinlogEvent.Query q = EventBodyParser.query(header, body);
                QueryEventData d = new QueryEventData();
                d.setSql(new String(q.sql(), StandardCharsets.UTF_8));
                d.setDatabase(q.database());
                return d;
            }
            case EventConverter.ANNOTATE_ROWS -> {
                AnnotateRowsEventData d = new AnnotateRowsEventData();
                d.setRowsQuery(new String(body, StandardCharsets.UTF_8));
                return d;
            }
            case EventConverter.MARIADB_GTID -> {
                BinlogEvent.Gtid g = EventBodyParser.mariadbGtid(header, body);
                SourceGtid.Mariadb m = (SourceGtid.Mariadb) g.gtid();
                MariadbGtidEventData d = new MariadbGtidEventData();
                d.setSequence(m.sequence());
                d.setDomainId(m.domainId());
                d.setServerId(m.serverId());
                d.setFlags(g.flags());
                return d;
            }
            case EventConverter.MARIADB_GTID_LIST -> {
                MariadbGtidListEventData d = new MariadbGtidListEventData();
                d.setMariaGTIDSet(new MariadbGtidSet(gtidList(body)));
                return d;
            }
            case EventConverter.GTID -> {
                BinlogEvent.Gtid g = EventBodyParser.mysqlGtid(header, body, false);
                SourceGtid.Mysql m = (SourceGtid.Mysql) g.gtid();
                return new GtidEventData(new MySqlGtid(m.sourceId(), m.transactionId()), (byte) g.flags(),
                    g.lastCommitted(), g.sequenceNumber(), 0, 0, 0, 0, 0);
            }
            default -> {
                return null;
            }
        }
    }

    /** MariaDB GTID_LIST_EVENT: count (low 28 bits) then count × (domain u32, server u32, seq u64). */
    static String gtidList(byte[] body) {
        ByteReader r = new ByteReader(body);
        long count = r.u32() & 0x0FFFFFFFL;
        StringBuilder sb = new StringBuilder();
        for (long i = 0; i < count; i++) {
            long domain = r.u32();
            long server = r.u32();
            long seq = r.i64();
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(domain).append('-').append(server).append('-').append(Long.toUnsignedString(seq));
        }
        return sb.toString();
    }
}
