package io.binlogapplier.binlog;

import com.github.shyiko.mysql.binlog.event.EventData;

/**
 * One event as framed off the wire: our header and the body bytes without the checksum. The
 * only object that crosses from mysql-binlog-connector-java into our code.
 */
record RawEvent(EventHeader header, byte[] body) implements EventData {
    private static final long serialVersionUID = 1L;
}
