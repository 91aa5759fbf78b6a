package io.binlogapplier.binlog;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.config.SourceConfig;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * How the reader's stream ends, without a source server: a stop before {@link BinlogReader#start}
 * ends it cleanly without connecting, while a source that is not there ends it with a failure.
 */
class BinlogReaderStopTest {
    /** Only a guard against a hang: no assertion depends on how long anything takes. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(5);
    private static final String THREAD = "applier-test-reader";
    private static final SourcePosition FROM =
        new SourcePosition(new BinlogCoordinates("mysql-bin.000001", 4), "", SourcePosition.ResumeBy.FILE);

    @Test
    void aStopBeforeStartEndsTheStreamWithoutAFailureOnTheReaderThread() throws Exception {
        BinlogReader reader = new BinlogReader(source(deadPort()), THREAD, false);
        RecordingListener listener = new RecordingListener();

        reader.stop();
        reader.start(FROM, listener);

        assertThat(listener.end()).as("a stop is not a failure (not an unreachable source)").isNull();
        assertThat(listener.endThread.getName()).isEqualTo(THREAD);
        assertThat(listener.events.get()).isZero();
        assertTimeoutPreemptively(HANG_GUARD, () -> reader.join(HANG_GUARD.toMillis()));
        assertThat(listener.endThread.isAlive()).as("join returned after the reader thread ended").isFalse();
        assertThat(listener.ends.get()).as("onEnd once").isEqualTo(1);
    }

    /**
     * The test above alone cannot tell a reader that connects anyway: against a dead port a stopping
     * reader also ends with null (a transient failure while stopping is no failure). A listening
     * port can: a completed connect leaves a connection waiting to be accepted.
     */
    @Test
    void aStopBeforeStartNeverOpensAConnectionToTheSource() throws Exception {
        try (ServerSocketChannel source = ServerSocketChannel.open()) {
            source.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            source.configureBlocking(false);
            int port = ((InetSocketAddress) source.getLocalAddress()).getPort();
            BinlogReader reader = new BinlogReader(source(port), THREAD, false);
            RecordingListener listener = new RecordingListener();

            reader.stop();
            reader.start(FROM, listener);

            assertThat(listener.end()).isNull();
            assertTimeoutPreemptively(HANG_GUARD, () -> reader.join(HANG_GUARD.toMillis()));
            // A connect() that had completed would have left the connection in the accept queue.
            assertThat(source.accept()).as("no connection attempt reached the listening port").isNull();
            assertThat(listener.events.get()).isZero();
        }
    }

    @Test
    void withoutAStopASourceThatIsNotThereEndsTheStreamAsUnreachable() throws Exception {
        int port = deadPort();
        BinlogReader reader = new BinlogReader(source(port), THREAD, false);
        RecordingListener listener = new RecordingListener();

        reader.start(FROM, listener);

        ApplierException failure = listener.end();
        assertThat(failure).as("the contrast with a stop: here the end is a failure").isNotNull();
        assertThat(failure.exitCode()).isEqualTo(ExitCode.SOURCE_UNREACHABLE);
        assertThat(failure).hasMessageContaining("127.0.0.1:" + port);
        assertThat(SourceErrors.isTransient(failure)).isTrue();
        assertThat(listener.endThread.getName()).isEqualTo(THREAD);
        assertThat(listener.events.get()).isZero();
        assertTimeoutPreemptively(HANG_GUARD, () -> reader.join(HANG_GUARD.toMillis()));
        assertThat(listener.ends.get()).isEqualTo(1);
    }

    @Test
    void aReaderStartsOnlyOnce() throws Exception {
        BinlogReader reader = new BinlogReader(source(deadPort()), THREAD, false);
        RecordingListener listener = new RecordingListener();
        reader.stop();
        reader.start(FROM, listener);
        assertThat(listener.end()).isNull();
        assertThatThrownBy(() -> reader.start(FROM, new RecordingListener()))
            .isInstanceOf(IllegalStateException.class);
    }

    private static SourceConfig source(int port) {
        String yaml = """
            source:
              host: 127.0.0.1
              port: %d
              user: repl
              password: repl
              server_id: 4242
              connect_timeout: 2s
            target:
              host: 127.0.0.1
              user: root
              password: ""
            """.formatted(port);
        return new ConfigLoader(name -> null).parse(yaml, "test", "stop-test").source();
    }

    /** A loopback port where nothing listens (just released; nobody else is expected to take it). */
    private static int deadPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static final class RecordingListener implements BinlogReader.Listener {
        final AtomicInteger events = new AtomicInteger();
        final AtomicInteger ends = new AtomicInteger();
        final CompletableFuture<ApplierException> end = new CompletableFuture<>();
        volatile Thread endThread;

        @Override
        public void onEvent(BinlogEvent event) {
            events.incrementAndGet();
        }

        @Override
        public void onEnd(ApplierException failure) {
            endThread = Thread.currentThread();
            ends.incrementAndGet();
            end.complete(failure);
        }

        /** Waits for onEnd and returns its failure (null: a clean end). */
        ApplierException end() {
            return assertTimeoutPreemptively(HANG_GUARD, () -> end.get());
        }
    }
}
