package io.binlogapplier.server.metrics;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import com.sun.net.httpserver.HttpServer;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.MetricsConfig;
import io.binlogapplier.config.Secret;
import io.binlogapplier.tls.ServerTls;
import io.binlogapplier.pipeline.ApplierStatus;
import io.binlogapplier.pipeline.PipelineMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP endpoint of one applier ({@code metrics.listen}): {@code GET /metrics}, the Prometheus
 * text format; {@code GET /health}, a JSON document ({@link HealthJson}), HTTP 200 unless the
 * applier failed (503). One request at a time, on thread {@code applier-<name>-metrics}. HTTPS when
 * {@code metrics.tls} names a certificate and key; HTTP basic authentication on every path when
 * {@code metrics.basic_auth} names a user.
 */
public final class MetricsServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    /**
     * While starting, a scrape waits this long for the lag to be known rather than report NaN; less
     * than Prometheus' default scrape timeout (10 s).
     */
    static final long STARTUP_WAIT_MILLIS = 8_000;

    private final HttpServer server;
    private final ExecutorService executor;
    private final MicrometerMetrics metrics;

    private MetricsServer(HttpServer server, ExecutorService executor, MicrometerMetrics metrics) {
        this.server = server;
        this.executor = executor;
        this.metrics = metrics;
    }

    /** The metrics the pipeline should report to ({@link PipelineMetrics#NONE} when there is no endpoint). */
    public PipelineMetrics metrics() {
        return metrics == null ? PipelineMetrics.NONE : metrics;
    }

    /**
     * Starts the endpoint of {@code config.metrics()}, or nothing when it is off.
     *
     * @throws ApplierException {@link ExitCode#METRICS_LISTEN} when the address cannot be bound
     */
    public static MetricsServer start(ApplierConfig config, ApplierStatus status, String version) {
        MetricsConfig listen = config.metrics();
        if (!listen.enabled()) {
            return new MetricsServer(null, null, null);
        }
        InetSocketAddress address = listen.host().isEmpty() ? new InetSocketAddress(listen.port())
            : new InetSocketAddress(listen.host(), listen.port());
        if (address.isUnresolved()) {
            throw new ApplierException(ExitCode.METRICS_LISTEN, "cannot listen for metrics on " + listen.listen()
                + ": host '" + listen.host() + "' is unknown; set metrics.listen to an address of this machine, or off");
        }
        HttpServer server;
        try {
            if (listen.tls()) {
                HttpsServer https = HttpsServer.create(address, 16);
                https.setHttpsConfigurator(new HttpsConfigurator(ServerTls.context(listen.tlsCert(), listen.tlsKey())));
                server = https;
            } else {
                server = HttpServer.create(address, 16);
            }
        } catch (GeneralSecurityException e) {
            throw new ApplierException(ExitCode.CONFIG, "cannot serve HTTPS with metrics.tls.cert_file and key_file ("
                + e.getClass().getSimpleName() + "): check that the key belongs to the certificate", e);
        } catch (IOException e) {
            throw new ApplierException(ExitCode.METRICS_LISTEN, "cannot listen for metrics on " + listen.listen()
                + " (" + e.getMessage() + "): another process (another binlog-applier?) may use it; give each applier"
                + " its own metrics.listen, or set it to off", e);
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MicrometerMetrics metrics = new MicrometerMetrics(registry, config.name(), status, version);
        JvmMeters.bind(registry, config.name());
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "applier-" + config.name() + "-metrics");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        Authenticator auth = listen.basicAuth() ? new PasswordCheck(listen.user(), listen.password()) : null;
        server.createContext("/metrics", x -> respond(x, () -> {
            awaitStart(status);
            metrics.refresh();
            return new Reply(200, PROMETHEUS_TEXT, registry.scrape());
        })).setAuthenticator(auth);
        server.createContext("/health", x -> respond(x, () -> new Reply(
            status.state() == ApplierStatus.State.FAILED ? 503 : 200, "application/json",
            HealthJson.of(config.name(), status) + "\n"))).setAuthenticator(auth);
        server.createContext("/", x -> respond(x, () -> new Reply(404, "text/plain; charset=utf-8",
            "not found: binlog-applier serves /metrics and /health\n"))).setAuthenticator(auth);
        server.start();
        log.info("metrics on {}://{}/metrics, health on /health{}", listen.tls() ? "https" : "http", listen.listen(),
            listen.basicAuth() ? " (basic authentication)" : "");
        return new MetricsServer(server, executor, metrics);
    }

    /** HTTP basic authentication against the one configured user; compares in constant time. */
    private static final class PasswordCheck extends BasicAuthenticator {
        private final byte[] user;
        private final byte[] password;

        PasswordCheck(String user, Secret password) {
            super("binlog-applier", StandardCharsets.UTF_8);
            this.user = user.getBytes(StandardCharsets.UTF_8);
            this.password = password.value().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public boolean checkCredentials(String u, String p) {
            boolean userOk = MessageDigest.isEqual(user, u.getBytes(StandardCharsets.UTF_8));
            boolean passwordOk = MessageDigest.isEqual(password, p.getBytes(StandardCharsets.UTF_8));
            return userOk & passwordOk;
        }
    }

    private record Reply(int status, String contentType, String body) {
    }

    private interface Handler {
        Reply handle() throws InterruptedException;
    }

    private static void respond(HttpExchange x, Handler h) throws IOException {
        try (x) {
            Reply r;
            if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
                r = new Reply(405, "text/plain; charset=utf-8", "only GET and HEAD\n");
            } else {
                try {
                    r = h.handle();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    r = new Reply(503, "text/plain; charset=utf-8", "shutting down\n");
                } catch (RuntimeException e) {
                    log.warn("metrics request {} failed: {}", x.getRequestURI(), e.toString());
                    r = new Reply(500, "text/plain; charset=utf-8", "internal error: " + e + "\n");
                }
            }
            byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", r.contentType());
            boolean head = x.getRequestMethod().equals("HEAD");
            x.sendResponseHeaders(r.status(), head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = x.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /**
     * A scrape in the first moments of a start would see an unknown lag; it waits (briefly) until the
     * position and the source's end are known, so that the first sample after a restart is a real one.
     */
    private static void awaitStart(ApplierStatus status) throws InterruptedException {
        long deadline = System.nanoTime() + STARTUP_WAIT_MILLIS * 1_000_000;
        while (status.state() == ApplierStatus.State.STARTING && Double.isNaN(status.lagSeconds())
            && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
