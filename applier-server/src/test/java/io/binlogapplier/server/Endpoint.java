package io.binlogapplier.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A running applier's metrics endpoint, as a scraper sees it. */
final class Endpoint {
    private static final Pattern LAG = Pattern.compile("(?m)^binlog_applier_lag_seconds\\{[^}]*} (\\S+)$");
    private static final Pattern STATE = Pattern.compile("\"state\":\"([a-z_]+)\"");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final int port;

    Endpoint(int port) {
        this.port = port;
    }

    int port() {
        return port;
    }

    /** A free TCP port on the loopback interface. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The YAML of a config with this endpoint instead of none. */
    String enable(String yaml) {
        if (!yaml.contains("  listen: off\n")) {
            throw new IllegalArgumentException("no 'listen: off' to replace in:\n" + yaml);
        }
        return yaml.replace("  listen: off\n", "  listen: \"127.0.0.1:" + port + "\"\n");
    }

    record Reply(int status, String body) {
    }

    /** GET path; null while nothing accepts connections on the port. */
    Reply get(String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        } catch (ConnectException e) {
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The first successful scrape, trying every 20 ms for up to {@code seconds}. */
    String firstScrape(CliRun run, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            Reply r = get("/metrics");
            if (r != null) {
                if (r.status() != 200) {
                    throw new AssertionError("/metrics answered " + r.status() + ": " + r.body());
                }
                return r.body();
            }
            if (!run.alive()) {
                throw new AssertionError("the applier exited before serving /metrics:\n" + run.output());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no /metrics within " + seconds + " s:\n" + run.output());
    }

    String scrape() {
        Reply r = get("/metrics");
        if (r == null || r.status() != 200) {
            throw new AssertionError("/metrics: " + r);
        }
        return r.body();
    }

    /** binlog_applier_lag_seconds of a scrape. */
    static double lag(String scrape) {
        Matcher m = LAG.matcher(scrape);
        if (!m.find()) {
            throw new AssertionError("no binlog_applier_lag_seconds in:\n" + scrape);
        }
        return Double.parseDouble(m.group(1));
    }

    /** The value of the first sample of {@code name} in a scrape. */
    static double metric(String scrape, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*} (\\S+)$").matcher(scrape);
        if (!m.find()) {
            throw new AssertionError("no " + name + " in:\n" + scrape);
        }
        return Double.parseDouble(m.group(1));
    }

    String health() {
        Reply r = get("/health");
        if (r == null) {
            throw new AssertionError("/health: nothing listens on " + port);
        }
        return r.body();
    }

    static String state(String health) {
        Matcher m = STATE.matcher(health);
        if (!m.find()) {
            throw new AssertionError("no state in " + health);
        }
        return m.group(1);
    }

    /** Waits until /health says {@code state}; returns that health document. */
    String awaitState(String state, CliRun run, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        String last = null;
        while (System.nanoTime() < deadline) {
            Reply r = get("/health");
            if (r != null) {
                last = r.body();
                if (state(last).equals(state)) {
                    return last;
                }
            }
            if (!run.alive()) {
                throw new AssertionError("the applier exited while waiting for " + state + ":\n" + run.output());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not " + state + " within " + seconds + " s; last health " + last + "\n"
            + run.output());
    }

    /**
     * The TCP ports process {@code pid} listens on (Linux: its socket inodes in /proc/PID/fd matched
     * against the LISTEN entries of /proc/net/tcp and tcp6).
     */
    static Set<Integer> listeningPorts(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException gone) {
                    // closed meanwhile
                }
            }
        }
        Set<Integer> ports = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(table);
            if (!Files.exists(p)) {
                continue;
            }
            List<String> lines = Files.readAllLines(p);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // local_address rem_address st ... inode (field 9)
                if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) {
                    ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }
}
