package io.binlogapplier.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;

import java.io.IOException;

/**
 * The library's client, except that the dump request for a tagged MySQL GTID set is ours
 * ({@link GtidDumpRequest}): mysql-binlog-connector-java 0.30.1 cannot parse {@code uuid:tag:1-5}.
 * Everything else (handshake, authentication, heartbeats, event reading) stays the library's.
 */
final class TaggedGtidClient extends BinaryLogClient {
    private volatile byte[] dump;

    TaggedGtidClient(String host, int port, String user, String password) {
        super(host, port, user, password);
    }

    /** Streams from this GTID set instead of a file position (the library's own GTID set stays unset). */
    void dumpFrom(String gtids) {
        // A non-null file name keeps the library from asking the source for its current position.
        setBinlogFilename("");
        setBinlogPosition(4);
        dump = GtidDumpRequest.command(getServerId(), "", 4, gtids);
    }

    @Override
    protected void requestBinaryLogStream() throws IOException {
        byte[] request = dump;
        if (request == null) {
            super.requestBinaryLogStream();
            return;
        }
        channel.write(() -> request);
    }
}
