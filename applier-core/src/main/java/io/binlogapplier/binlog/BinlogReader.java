package io.binlogapplier.binlog;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.EventDataWrapper;
import io.binlogapplier.ApplierException;
import io.binlogapplier.config.SourceConfig;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.source.SourceConnections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads the source's binlog as a replica (mysql-binlog-connector-java for the protocol) and hands
 * each event, decoded, to a {@link Listener}, on its own thread {@code applier-<name>-reader}.
 *
 * <p>Fails closed: the first decoding error, listener error or server error ends the stream and is
 * reported once through {@link Listener#onEnd}; no event after it is delivered.
 */
public final class BinlogReader {
    private static final Logger log = LoggerFactory.getLogger(BinlogReader.class);

    /** Receives the stream. Both methods run on the reader thread. */
    public interface Listener {
        /** May block (ring back-pressure); an exception ends the stream. */
        void onEvent(BinlogEvent event) throws InterruptedException;

        /**
         * The stream ended: {@code failure} null after {@link #stop()}, else why (a transient loss is
         * {@link io.binlogapplier.ExitCode#SOURCE_UNREACHABLE}).
         */
        void onEnd(ApplierException failure);
    }

    private final SourceConfig config;
    private final String threadName;
    private final EventConverter converter;
    private final AtomicReference<ApplierException> failure = new AtomicReference<>();
    private volatile boolean stopping;
    private volatile BinaryLogClient client;
    private Thread thread;
    /** The source's server_id a start by file position requires, or null (see {@link #requireSourceServerId}). */
    private Long requiredServerId;

    /** @param keepBodies keep raw rows-event bodies for the BINLOG apply method */
    public BinlogReader(SourceConfig config, String threadName, boolean keepBodies) {
        this(config, threadName, keepBodies, false);
    }

    /**
     * @param keepBodies keep raw rows-event bodies for the BINLOG apply method
     * @param lazyRows decode row values only where something reads them ({@code RowImages})
     */
    public BinlogReader(SourceConfig config, String threadName, boolean keepBodies, boolean lazyRows) {
        this(config, threadName, keepBodies, () -> lazyRows);
    }

    /** As {@link #BinlogReader(SourceConfig, String, boolean, boolean)}, asking at each rows event. */
    public BinlogReader(SourceConfig config, String threadName, boolean keepBodies,
                        java.util.function.BooleanSupplier lazyRows) {
        this.config = config;
        this.threadName = threadName;
        this.converter = new EventConverter(keepBodies, lazyRows);
    }

    /**
     * Before {@link #start}: when it starts by file position, the stream is refused
     * ({@link io.binlogapplier.ExitCode#SOURCE_CHANGED}, no event delivered) unless the server it
     * connects to has this {@code server_id}, asked on the very connection that streams the binlog
     * (a failover behind the address between the start's checks and this connection is caught too).
     */
    public synchronized void requireSourceServerId(long serverId) {
        this.requiredServerId = serverId;
    }

    /** Connects from {@code from} and starts delivering events; returns at once. */
    public synchronized void start(SourcePosition from, Listener listener) {
        if (thread != null) {
            throw new IllegalStateException("reader already started");
        }
        // address, credentials, timeouts, TLS; the subclass encodes tagged MySQL GTID sets in the dump request
        TaggedGtidClient c = SourceConnections.configure(new TaggedGtidClient(config.host(),
            config.port(), config.user(), config.password().value()), config);
        // We reconnect ourselves (from the committed position, through a new pipeline): the library's
        // keep-alive thread would reconnect behind our back.
        c.setKeepAlive(false);
        c.setBlocking(true);
        c.setHeartbeatInterval(config.heartbeat().toMillis());
        c.setUseSendAnnotateRowsEvent(false);
        c.setEventDeserializer(new EventFramer());
        if (from.resumeBy() == SourcePosition.ResumeBy.GTID && GtidDumpRequest.tagged(from.gtids())) {
            c.dumpFrom(from.gtids()); // MySQL 8.4 tags: the library cannot encode them (issue 17, #6)
        } else if (from.resumeBy() == SourcePosition.ResumeBy.GTID) {
            c.setGtidSet(from.gtids());
        } else {
            c.setBinlogFilename(from.coordinates().file());
            c.setBinlogPosition(from.coordinates().offset());
        }
        String fromText = from.toString();
        Long required = from.resumeBy() == SourcePosition.ResumeBy.FILE ? requiredServerId : null;
        c.registerEventListener(event -> deliver(event, listener, fromText));
        c.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onConnect(BinaryLogClient client) {
                // A stop that came between our check in run() and the library taking its connect
                // lock found nothing to disconnect: disconnect now that there is a connection.
                if (stopping) {
                    disconnectQuietly();
                    return;
                }
                // The library read @@server_id on this connection before asking for the binlog; no
                // event has been delivered yet, and after a failure none is.
                long now = client.getMasterServerId();
                if (required != null && now != required) {
                    fail(io.binlogapplier.position.SourceIdentity.changed(config.address(), now, required, from));
                }
            }

            @Override
            public void onCommunicationFailure(BinaryLogClient client, Exception ex) {
                fail(SourceErrors.classify(ex, config.address(), config.user(), fromText, config.readTimeout()));
            }

            @Override
            public void onEventDeserializationFailure(BinaryLogClient client, Exception ex) {
                // The library would skip the event and carry on: never. Stop here.
                fail(SourceErrors.classify(ex, config.address(), config.user(), fromText));
            }
        });
        client = c;
        thread = new Thread(() -> run(c, listener, fromText), threadName);
        thread.setDaemon(true);
        thread.start();
    }

    private void run(BinaryLogClient c, Listener listener, String fromText) {
        try {
            if (stopping) {
                return; // stopped before it connected: end the stream without connecting
            }
            log.info("connecting to source {} as server_id {} from {}", config.address(), config.serverId(), fromText);
            c.connect();
        } catch (IOException | RuntimeException e) {
            fail(SourceErrors.classify(e, config.address(), config.user(), fromText, config.readTimeout()));
        } catch (Error e) {
            // Out of memory (or worse) on the reader thread: say so, not "the source closed the connection".
            fail(new ApplierException(io.binlogapplier.ExitCode.INTERNAL, "the binlog reader failed: " + e, e));
            throw e;
        } finally {
            ApplierException f = failure.get();
            if (f == null && !stopping) {
                f = SourceErrors.classify(new java.io.EOFException("the source closed the connection"),
                    config.address(), config.user(), fromText);
            }
            listener.onEnd(stopping && f != null && SourceErrors.isTransient(f) ? null : f);
        }
    }

    private void deliver(Event event, Listener listener, String fromText) {
        if (failure.get() != null || stopping) {
            return;
        }
        try {
            EventData data = event.getData();
            if (data instanceof EventDataWrapper w) {
                data = w.getExternal();
            }
            RawEvent raw = (RawEvent) data;
            listener.onEvent(converter.convert(raw.header(), raw.body()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (!stopping) {
                fail(new ApplierException(io.binlogapplier.ExitCode.INTERNAL, "reader interrupted", e));
            }
        } catch (ApplierException e) {
            fail(e);
        } catch (RuntimeException e) {
            fail(SourceErrors.classify(e, config.address(), config.user(), fromText));
        }
    }

    private void fail(ApplierException e) {
        if (stopping && SourceErrors.isTransient(e)) {
            return; // the disconnect we asked for
        }
        if (failure.compareAndSet(null, e)) {
            disconnectQuietly();
        }
    }

    /**
     * Ends the stream: disconnects; {@link Listener#onEnd} follows on the reader thread. A stop
     * before {@link #start} or while connecting is kept: the reader then ends without streaming.
     */
    public void stop() {
        stopping = true;
        disconnectQuietly();
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
        }
    }

    /** Waits for the reader thread to end. */
    public void join(long millis) throws InterruptedException {
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            t.join(millis);
        }
    }

    private void disconnectQuietly() {
        BinaryLogClient c = client;
        if (c == null) {
            return;
        }
        Thread closer = new Thread(() -> {
            try {
                c.disconnect();
            } catch (IOException | RuntimeException e) {
                log.debug("disconnect from source: {}", e.toString());
            }
        }, threadName + "-disconnect");
        closer.setDaemon(true);
        closer.start();
    }
}
