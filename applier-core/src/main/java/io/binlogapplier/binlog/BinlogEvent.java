package io.binlogapplier.binlog;

import io.binlogapplier.position.SourceGtid;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;

/**
 * One source binlog event, converted from mysql-binlog-connector-java's types at the boundary.
 * Every variant is immutable.
 */
public sealed interface BinlogEvent {

    EventHeader header();

    /** The source switches to another binlog file (also sent, artificial, right after connecting). */
    record Rotate(EventHeader header, String file, long position) implements BinlogEvent {
    }

    /**
     * Start of a binlog file (or of the stream after connecting). {@code raw} is the whole event as
     * received (header, body, checksum): a target must see it before BINLOG statements of rows.
     */
    record FormatDescription(EventHeader header, String serverVersion, byte[] raw) implements BinlogEvent {
    }

    /**
     * Start of a transaction (MariaDB GTID event, MySQL GTID or ANONYMOUS_GTID event).
     *
     * @param gtid null for MySQL anonymous transactions
     * @param standalone MariaDB FL_STANDALONE: one statement, no BEGIN/COMMIT follows
     * @param ddl MariaDB FL_DDL
     * @param commitId MariaDB commit_id when FL_GROUP_COMMIT_ID is set, else -1
     * @param lastCommitted MySQL logical clock, else -1
     * @param sequenceNumber MySQL logical clock, else -1
     * @param commitMicros MySQL original_commit_timestamp in microseconds since the epoch, else 0
     */
    record Gtid(EventHeader header, SourceGtid gtid, int flags, boolean standalone, boolean ddl, boolean transactional,
                long commitId, long lastCommitted, long sequenceNumber, long commitMicros) implements BinlogEvent {
    }

    /** A statement: BEGIN, COMMIT, DDL, or statement-format DML. The text is raw bytes in the client charset. */
    record Query(EventHeader header, long threadId, int errorCode, String database, byte[] sql, QueryStatus status)
        implements BinlogEvent {

        /** The statement decoded as ISO-8859-1: exact for the ASCII keywords used to classify it. */
        public String sqlForClassification() {
            return new String(sql, 0, Math.min(sql.length, 256), StandardCharsets.ISO_8859_1);
        }
    }

    /** COMMIT of a transactional transaction. */
    record Xid(EventHeader header, long xid) implements BinlogEvent {
    }

    record TableMapped(EventHeader header, TableMap map) implements BinlogEvent {
    }

    /**
     * Rows changed in one table. For UPDATE, {@code rows} alternates before and after images.
     * {@code body} is the raw event body, kept only when rows are applied as BINLOG statements.
     */
    record Rows(EventHeader header, RowsKind kind, long tableId, int flags, BitSet beforeColumns,
                BitSet afterColumns, List<Object[]> rows, long sizeBytes, byte[] body) implements BinlogEvent {
        /** Rows-event flag STMT_END_F. */
        public static final int FLAG_STMT_END = 1;
        /** Rows-event flag NO_FOREIGN_KEY_CHECKS_F: the source session had foreign_key_checks=0. */
        public static final int FLAG_NO_FOREIGN_KEY_CHECKS = 2;
        /** Rows-event flag RELAXED_UNIQUE_CHECKS_F: the source session had unique_checks=0. */
        public static final int FLAG_RELAXED_UNIQUE_CHECKS = 4;
    }

    /** INSERT_ID or LAST_INSERT_ID for the next statement-format statement. */
    record IntVar(EventHeader header, int kind, long value) implements BinlogEvent {
        public static final int LAST_INSERT_ID = 1;
        public static final int INSERT_ID = 2;
    }

    /** RAND() seeds for the next statement-format statement. */
    record Rand(EventHeader header, long seed1, long seed2) implements BinlogEvent {
    }

    /** The source has nothing newer than {@code header().nextPosition()} in {@code file}. */
    record Heartbeat(EventHeader header, String file) implements BinlogEvent {
    }

    /**
     * A MySQL TRANSACTION_PAYLOAD event. {@code inner} decodes its events in order as it is iterated,
     * decompressing as a stream, so a compressed transaction is never whole in memory once
     * decompressed (only its compressed bytes are, as for any event). Iterate it on the reader thread,
     * while the event is being handled: decoding uses the converter's table maps.
     */
    record Payload(EventHeader header, Iterable<BinlogEvent> inner) implements BinlogEvent {
        /** The inner events in a list (decodes them all; for small payloads and tests). */
        public List<BinlogEvent> events() {
            List<BinlogEvent> all = new java.util.ArrayList<>();
            inner.forEach(all::add);
            return all;
        }
    }

    /** An event that carries nothing to apply (GTID list, checkpoint, annotate rows, …). */
    record Ignorable(EventHeader header, String what) implements BinlogEvent {
    }

    /** An event binlog-applier cannot apply; applying must stop here. */
    record Unsupported(EventHeader header, String what, String fix) implements BinlogEvent {
    }
}
