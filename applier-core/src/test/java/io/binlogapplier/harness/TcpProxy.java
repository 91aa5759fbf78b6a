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
 * once, {@link #restore()} forwards again. {@link #drop()} is a silent partition: nothing is
 * forwarded any more and nobody is told; new connections are accepted and hear nothing. {@link #heal()}
 * forwards new connections again; the ones caught in the partition stay silent on both ends, as
 * when the network lost the client's FIN: the server keeps those sessions. Loopback only.
 */
public final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private volatile int upstreamPort;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    /** Connections caught in a partition: never forwarded again (kept so they stay open, silent). */
    private final List<Socket> silenced = new CopyOnWriteArrayList<>();
    private final Object partition = new Object();
    /** Bumped by each {@link #drop()}: a pump of an earlier generation stops forwarding. */
    private volatile int dropGeneration;
    private volatile boolean dropped;
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

    /**
     * New connections go to 127.0.0.1:{@code port} from now on; those open stay where they are (a virtual
     * IP moved to another server: {@link #cut()} as well to end them).
     */
    public void retarget(int port) {
        upstreamPort = port;
    }

    private volatile java.io.ByteArrayOutputStream captured;

    /** From now on keeps a copy of every byte forwarded, either way (for tests that look for clear text). */
    public void capture() {
        captured = new java.io.ByteArrayOutputStream();
    }

    /** The bytes forwarded since {@link #capture()}; empty when not capturing. */
    public byte[] captured() {
        java.io.ByteArrayOutputStream c = captured;
        if (c == null) {
            return new byte[0];
        }
        synchronized (c) {
            return c.toByteArray();
        }
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

    /** A silent partition: no byte passes either way, no connection is reset or refused. */
    public void drop() {
        synchronized (partition) {
            dropGeneration++;
            dropped = true;
        }
    }

    /** Ends the partition for new connections; those it caught stay silent. */
    public void heal() {
        synchronized (partition) {
            dropped = false;
            partition.notifyAll();
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                if (cut) {
                    reset(client);
                    continue;
                }
                if (dropped) {
                    silenced.add(client); // accepted by the kernel, then nothing: a SYN lost would be the same
                    continue;
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                open.add(client);
                open.add(server);
                int generation = dropGeneration;
                pump(client, server, generation);
                pump(server, client, generation);
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to, int generation) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[64 << 10];
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0 && dropGeneration == generation) {
                    java.io.ByteArrayOutputStream c = captured;
                    if (c != null) {
                        synchronized (c) {
                            c.write(buffer, 0, n);
                        }
                    }
                    out.write(buffer, 0, n);
                }
            } catch (IOException ignored) {
                // one side went away
            }
            if (dropGeneration != generation && !closed) {
                // Caught in a partition: what either end does now never reaches the other, a close
                // included. Both sockets stay open and silent until the proxy closes.
                open.remove(from);
                open.remove(to);
                silenced.add(from);
                silenced.add(to);
                return;
            }
            reset(from);
            reset(to);
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
        for (Socket s : silenced) {
            reset(s);
        }
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
