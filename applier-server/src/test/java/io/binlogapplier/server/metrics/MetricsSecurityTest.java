package io.binlogapplier.server.metrics;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigException;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.config.PemFiles;
import io.binlogapplier.harness.TestCertificates;
import io.binlogapplier.pipeline.ApplierStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The metrics endpoint over HTTPS and with basic authentication (no database needed). */
class MetricsSecurityTest {
    private static final String PASSWORD = "metrics-Pw-31f7";
    private static TestCertificates certs;
    private static Path passwordFile;

    @BeforeAll
    static void files() throws IOException {
        certs = TestCertificates.create();
        passwordFile = certs.dir.resolve("metrics-password");
        Files.writeString(passwordFile, PASSWORD + "\n");
        Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static ApplierConfig config(String metrics) {
        String yaml = "source: {host: db1, user: repl, server_id: 7}\ntarget: {host: db2, user: app}\nmetrics:\n" + metrics;
        return new ConfigLoader(Map.<String, String>of()::get).parse(yaml, "test.yml", "orders");
    }

    private static HttpClient trustingTheTestCa() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("ca", PemFiles.certificates(certs.ca).get(0));
        TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        f.init(ks);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, f.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(c).connectTimeout(Duration.ofSeconds(2)).build();
    }

    private static int status(HttpClient http, String url, String credentials) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
        if (credentials != null) {
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void servesHttpsWithTheConfiguredCertificateAndAsksEveryPathForThePassword() throws Exception {
        int port = freePort();
        ApplierConfig config = config("  listen: \"127.0.0.1:" + port + "\"\n"
            + "  tls: {cert_file: " + certs.serverCert + ", key_file: " + certs.serverKey + "}\n"
            + "  basic_auth: {user: prometheus, password_file: " + passwordFile + "}\n");
        assertThat(config.metrics().toString()).doesNotContain(PASSWORD);
        try (MetricsServer server = MetricsServer.start(config, new ApplierStatus(Clock.systemUTC()), "test")) {
            assertThat(server).isNotNull();
            HttpClient https = trustingTheTestCa();
            String base = "https://127.0.0.1:" + port;

            assertThat(status(https, base + "/health", "prometheus:" + PASSWORD)).isEqualTo(200);
            assertThat(status(https, base + "/health", null)).isEqualTo(401);
            assertThat(status(https, base + "/metrics", "prometheus:wrong")).isEqualTo(401);
            assertThat(status(https, base + "/metrics", "other:" + PASSWORD)).isEqualTo(401);
            assertThat(status(https, base + "/nothing", null)).isEqualTo(401);
            // plain HTTP gets no answer from an HTTPS port
            HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            assertThatThrownBy(() -> status(plain, "http://127.0.0.1:" + port + "/health", "prometheus:" + PASSWORD))
                .isInstanceOf(IOException.class);
        }
    }

    @Test
    void withoutTlsOrAuthTheEndpointStaysPlainAndOpen() throws Exception {
        int port = freePort();
        ApplierConfig config = config("  listen: \"127.0.0.1:" + port + "\"\n");
        assertThat(config.metrics().tls()).isFalse();
        assertThat(config.metrics().basicAuth()).isFalse();
        try (MetricsServer server = MetricsServer.start(config, new ApplierStatus(Clock.systemUTC()), "test")) {
            assertThat(server).isNotNull();
            HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            assertThat(status(plain, "http://127.0.0.1:" + port + "/health", null)).isEqualTo(200);
        }
    }

    @Test
    void halfConfiguredTlsOrAuthIsAProblemNamingTheKey() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> config("  listen: \"127.0.0.1:9999\"\n"
            + "  tls: {cert_file: " + certs.serverCert + "}\n  basic_auth: {user: prometheus}\n"));
        assertThat(e).isNotNull();
        assertThat(e.problems()).contains(
            "metrics.tls.key_file: is required with cert_file: HTTPS needs both the certificate and its key",
            "metrics.basic_auth.password_file: is required with user: a file holding the password (its first line)");
    }
}
