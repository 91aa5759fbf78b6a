package io.binlogapplier.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder on 127.0.0.1 between the applier and a server, to make that server vanish and
 * come back without touching it: {@link #cut()} resets every connection and closes each new one at
 * once, {@link #restore()} forwards again. Loopback only.
 */
public final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int upstreamPort;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean cut;
    private volatile boolean closed;

    private TcpProxy(ServerSocket listener, int upstreamPort) {
        this.listener = listener;
        this.upstreamPort = upstreamPort;
        Thread t = new Thread(this::accept, "tcp-proxy-" + listener.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    /** Forwards a free local port to 127.0.0.1:{@code upstreamPort}. */
    public static TcpProxy to(int upstreamPort) {
        try {
            ServerSocket s = new ServerSocket();
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return new TcpProxy(s, upstreamPort);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Resets every forwarded connection; new ones are closed as soon as they arrive. */
    public void cut() {
        cut = true;
        for (Socket s : open) {
            reset(s);
        }
    }

    public void restore() {
        cut = false;
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                if (cut) {
                    reset(client);
                    continue;
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                open.add(client);
                open.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[64 << 10];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                }
            } catch (IOException ignored) {
                // one side went away
            } finally {
                reset(from);
                reset(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void reset(Socket s) {
        open.remove(s);
        try {
            s.setSoLinger(true, 0); // RST, as a crashed peer or a reset by the network
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        closed = true;
        cut();
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
