package io.binlogapplier.server;

import io.binlogapplier.server.monitoring.MonitoringKit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway Prometheus server (Debian's prometheus package): scrapes one applier endpoint every
 * second as job binlog-applier, with monitoring/alerts.yml loaded, its data in a temporary directory.
 */
final class Prometheus implements AutoCloseable {
    private final Process process;
    private final Path dir;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Prometheus(Process process, Path dir, int port) {
        this.process = process;
        this.dir = dir;
        this.port = port;
    }

    static Prometheus scraping(int applierPort) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("binlog-applier-prometheus-");
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            rule_files:
              - %s
            scrape_configs:
              - job_name: binlog-applier
                scrape_timeout: 1s
                static_configs:
                  - targets: ["127.0.0.1:%d"]
            """.formatted(MonitoringKit.ALERTS.toAbsolutePath().normalize(), applierPort));
        int port = Endpoint.freePort();
        Process p = new ProcessBuilder(MonitoringKit.tool("prometheus"), "--config.file=" + config,
            "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
            .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        Prometheus prometheus = new Prometheus(p, dir, port);
        for (int i = 0; i < 300; i++) {
            if (prometheus.ready()) {
                return prometheus;
            }
            if (!p.isAlive()) {
                break;
            }
            Thread.sleep(100);
        }
        String log = prometheus.log();
        prometheus.close();
        throw new AssertionError("prometheus did not become ready:\n" + log);
    }

    private boolean ready() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/-/ready")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The result of an instant query (the "data.result" list); fails on an error status. */
    @SuppressWarnings("unchecked")
    List<Object> query(String promql) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
            Map<String, Object> body = Json.object(r.body());
            if (!"success".equals(body.get("status"))) {
                throw new AssertionError("query " + promql + " failed: " + r.body());
            }
            return (List<Object>) ((Map<String, Object>) body.get("data")).get("result");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String log() {
        try {
            return Files.readString(dir.resolve("prometheus.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // temporary
        }
    }
}
