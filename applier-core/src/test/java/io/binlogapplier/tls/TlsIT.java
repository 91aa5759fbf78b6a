package io.binlogapplier.tls;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.errors.Side;
import io.binlogapplier.pipeline.Applier;
import io.binlogapplier.pipeline.PipelineMetrics;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.ServerPair;
import io.binlogapplier.harness.TcpProxy;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.harness.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TLS end to end against throwaway servers started with certificates made by {@code openssl}: the
 * source's replication user and the target's apply user both {@code REQUIRE X509}, so nothing
 * connects without TLS and our client certificate.
 */
class TlsIT {
    private static final String SOURCE_PASSWORD = "src-Pw-7c1e9a";
    private static final String TARGET_PASSWORD = "tgt-Pw-4b8d2f";

    private static TestCertificates certs;
    private static ServerPair pair;
    private static MariaDb plain;
    /** The target's certificate files, swapped for another host's by one test (FLUSH SSL re-reads them). */
    private static Path targetCert;
    private static Path targetKey;

    @BeforeAll
    static void start() throws Exception {
        certs = TestCertificates.create();
        targetCert = certs.dir.resolve("target-served.pem");
        targetKey = certs.dir.resolve("target-served-key.pem");
        Files.copy(certs.serverCert, targetCert);
        Files.copy(certs.serverKey, targetKey);
        pair = ServerPair.start(certs.serverOptions(certs.serverCert, certs.serverKey),
            certs.serverOptions(targetCert, targetKey));
        pair.source.execute("SET SESSION sql_log_bin=0",
            "ALTER USER 'repl'@'%' IDENTIFIED BY '" + SOURCE_PASSWORD + "' REQUIRE X509",
            "CREATE USER 'plainrepl'@'%' IDENTIFIED BY 'plain-Pw-0'",
            "GRANT REPLICATION SLAVE, REPLICATION CLIENT, BINLOG MONITOR, SELECT ON *.* TO 'plainrepl'@'%'",
            "CREATE DATABASE tls_db", "CREATE TABLE tls_db.t (id INT PRIMARY KEY, v VARCHAR(200))");
        pair.target.execute("CREATE USER 'app'@'%' IDENTIFIED BY '" + TARGET_PASSWORD + "' REQUIRE X509",
            "GRANT ALL ON *.* TO 'app'@'%'",
            "CREATE DATABASE tls_db", "CREATE TABLE tls_db.t (id INT PRIMARY KEY, v VARCHAR(200))");
        plain = MariaDb.start("plain", 3, List.of("--skip-ssl"));
    }

    @AfterAll
    static void stop() {
        if (plain != null) {
            plain.close();
        }
        if (pair != null) {
            pair.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"preferred", "required", "verify_ca", "verify_identity"})
    void replicatesEndToEndUnderEachModeWithClientCertificatesOnBothSides(String mode) throws Exception {
        String start = TestApplier.currentPosition(pair.source);
        int id = 100 + List.of("preferred", "required", "verify_ca", "verify_identity").indexOf(mode);
        pair.source.execute("INSERT INTO tls_db.t VALUES (" + id + ", '" + mode + "')");
        // verify_identity: the source by its DNS name (localhost), the target by its IP address.
        String sourceHost = mode.equals("verify_identity") ? "localhost" : "127.0.0.1";

        Applier applier = new Applier(config("e2e_" + mode, start, sourceHost, pair.source.port(), "repl",
            SOURCE_PASSWORD, tls(mode, certs.ca, true), pair.target.port(), tls(mode, certs.ca, true)),
            PipelineMetrics.NONE, 30_000);
        applier.run(new Applier.Until.Current());

        assertThat(pair.target.queryString("SELECT v FROM tls_db.t WHERE id = " + id)).isEqualTo(mode);
        // what status and /health show
        assertThat(applier.status().tls(Side.SOURCE)).startsWith("TLSv1.");
        assertThat(applier.status().tls(Side.TARGET)).startsWith("TLSv1.");
    }

    @Test
    void withoutTheClientCertificateTheX509UsersRefuseTheLogin() {
        String start = TestApplier.currentPosition(pair.source);
        ApplierException e = TestApplier.runExpectingFailure(config("no_client_cert", start, "127.0.0.1",
            pair.source.port(), "repl", SOURCE_PASSWORD, tls("verify_identity", certs.ca, false), pair.target.port(),
            tls("verify_identity", certs.ca, true)));

        assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_ACCESS_DENIED);
        assertNoSecretIn(e);
    }

    @Test
    void theBinlogStreamCarriesNoRowValueInClearText() throws Exception {
        String marker = "clear-text-marker-" + UUID.randomUUID();
        try (TcpProxy proxy = TcpProxy.to(pair.source.port())) {
            // Control: the same stream without TLS shows the value, so the capture can see it.
            String start = TestApplier.currentPosition(pair.source);
            pair.source.execute("INSERT INTO tls_db.t VALUES (201, '" + marker + "-plain')");
            proxy.capture();
            Applier plainRun = new Applier(config("capture_plain", start, "127.0.0.1", proxy.port(), "plainrepl",
                "plain-Pw-0", "    mode: disabled\n", pair.target.port(), tls("verify_identity", certs.ca, true)),
                PipelineMetrics.NONE, 30_000);
            plainRun.run(new Applier.Until.Current());
            assertThat(plainRun.status().tls(Side.SOURCE)).isEmpty();
            assertThat(new String(proxy.captured(), StandardCharsets.ISO_8859_1)).contains(marker + "-plain");

            start = TestApplier.currentPosition(pair.source);
            pair.source.execute("INSERT INTO tls_db.t VALUES (202, '" + marker + "-tls')");
            proxy.capture();
            TestApplier.runUntilCurrent(config("capture_tls", start, "127.0.0.1", proxy.port(), "repl",
                SOURCE_PASSWORD, tls("verify_identity", certs.ca, true), pair.target.port(),
                tls("verify_identity", certs.ca, true)));

            assertThat(pair.target.queryString("SELECT v FROM tls_db.t WHERE id = 202")).isEqualTo(marker + "-tls");
            String seen = new String(proxy.captured(), StandardCharsets.ISO_8859_1);
            assertThat(seen).as("bytes between the applier and the source").isNotEmpty();
            assertThat(seen).doesNotContain(marker).doesNotContain("tls_db").doesNotContain(SOURCE_PASSWORD);
        }
    }

    @Test
    void aSourceCertificateFromAnotherCaStopsWithExit18AndAppliesNothing() {
        String start = TestApplier.currentPosition(pair.source);
        pair.source.execute("INSERT INTO tls_db.t VALUES (301, 'never')");

        ApplierException e = TestApplier.runExpectingFailure(config("wrong_ca_source", start, "127.0.0.1",
            pair.source.port(), "repl", SOURCE_PASSWORD, tls("verify_ca", certs.otherCa, true), pair.target.port(),
            tls("verify_ca", certs.ca, true)));

        assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_TLS);
        assertThat(e.getMessage()).startsWith("source 127.0.0.1:" + pair.source.port())
            .contains("not signed by the CA in source.tls.ca_file").doesNotContain("\n");
        assertNothingApplied("wrong_ca_source", 301);
        assertNoSecretIn(e);
    }

    @Test
    void aTargetCertificateFromAnotherCaStopsWithExit28AndAppliesNothing() {
        String start = TestApplier.currentPosition(pair.source);
        pair.source.execute("INSERT INTO tls_db.t VALUES (302, 'never')");

        ApplierException e = TestApplier.runExpectingFailure(config("wrong_ca_target", start, "127.0.0.1",
            pair.source.port(), "repl", SOURCE_PASSWORD, tls("verify_ca", certs.ca, true), pair.target.port(),
            tls("verify_ca", certs.otherCa, true)));

        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_TLS);
        assertThat(e.getMessage()).startsWith("target 127.0.0.1:" + pair.target.port())
            .contains("not signed by the CA in target.tls.ca_file").doesNotContain("\n");
        assertNothingApplied("wrong_ca_target", 302);
        assertNoSecretIn(e);
    }

    @Test
    void aCertificateForAnotherHostFailsVerifyIdentityButPassesVerifyCa() throws Exception {
        String start = TestApplier.currentPosition(pair.source);
        pair.source.execute("INSERT INTO tls_db.t VALUES (303, 'ca only')");
        serveTargetCertificate(certs.otherHostCert, certs.otherHostKey);
        try {
            ApplierException e = TestApplier.runExpectingFailure(config("other_host", start, "127.0.0.1",
                pair.source.port(), "repl", SOURCE_PASSWORD, tls("verify_identity", certs.ca, true), pair.target.port(),
                tls("verify_identity", certs.ca, true)));

            assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_TLS);
            assertThat(e.getMessage()).startsWith("target 127.0.0.1:" + pair.target.port())
                .contains("does not name this host").doesNotContain("\n");
            assertNothingApplied("other_host", 303);
            assertNoSecretIn(e);

            // The same certificate is signed by the CA: verify_ca accepts it.
            TestApplier.runUntilCurrent(config("other_host", start, "127.0.0.1", pair.source.port(), "repl",
                SOURCE_PASSWORD, tls("verify_identity", certs.ca, true), pair.target.port(),
                tls("verify_ca", certs.ca, true)));
            assertThat(pair.target.queryString("SELECT v FROM tls_db.t WHERE id = 303")).isEqualTo("ca only");
        } finally {
            serveTargetCertificate(certs.serverCert, certs.serverKey);
        }
    }

    @Test
    void aServerWithoutTlsFailsUnderRequiredOnEitherSide() {
        String start = TestApplier.currentPosition(pair.source);
        pair.source.execute("INSERT INTO tls_db.t VALUES (304, 'never')");

        ApplierException target = TestApplier.runExpectingFailure(config("no_tls_target", start, "127.0.0.1",
            pair.source.port(), "repl", SOURCE_PASSWORD, tls("verify_ca", certs.ca, true), plain.port(),
            "    mode: required\n"));
        ApplierException source = TestApplier.runExpectingFailure(config("no_tls_source", start, "127.0.0.1",
            plain.port(), "repl", SOURCE_PASSWORD, "    mode: required\n", pair.target.port(),
            tls("verify_ca", certs.ca, true)));

        assertThat(target.exitCode()).as(target.getMessage()).isEqualTo(ExitCode.TARGET_TLS);
        assertThat(target.getMessage()).isEqualTo("target 127.0.0.1:" + plain.port() + " does not offer TLS, but"
            + " target.tls.mode requires it: start the server with ssl_cert and ssl_key (and ssl_ca), or set"
            + " target.tls.mode to preferred");
        assertThat(source.exitCode()).as(source.getMessage()).isEqualTo(ExitCode.SOURCE_TLS);
        assertThat(source.getMessage()).startsWith("source 127.0.0.1:" + plain.port() + " does not offer TLS");
        assertNothingApplied("no_tls_source", 304);
        assertNoSecretIn(target);
        assertNoSecretIn(source);
    }

    // ---- helpers ----

    private static void serveTargetCertificate(Path cert, Path key) throws Exception {
        Files.copy(cert, targetCert, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(key, targetKey, StandardCopyOption.REPLACE_EXISTING);
        pair.target.execute("FLUSH SSL");
    }

    private static void assertNothingApplied(String name, int id) {
        assertThat(pair.target.queryLong("SELECT COUNT(*) FROM tls_db.t WHERE id = " + id)).isZero();
        assertThat(pair.target.queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA ="
            + " 'binlog_applier' AND TABLE_NAME = 'applier_position'") == 0
            || pair.target.queryLong("SELECT COUNT(*) FROM binlog_applier.applier_position WHERE stream = '"
            + name + "'") == 0).as("no saved position for " + name).isTrue();
    }

    /** The failure, its causes and their stack traces hold no password and no line of a private key. */
    private static void assertNoSecretIn(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        String text = w.toString();
        List<String> secrets = new ArrayList<>(List.of(SOURCE_PASSWORD, TARGET_PASSWORD, "plain-Pw-0"));
        secrets.addAll(certs.keyMaterial());
        for (String s : secrets) {
            assertThat(text).as("the failure's text").doesNotContain(s);
        }
    }

    private static String tls(String mode, Path ca, boolean clientCertificate) {
        return "    mode: " + mode + "\n"
            + "    ca_file: " + ca + "\n"
            + (clientCertificate ? "    cert_file: " + certs.clientCert + "\n    key_file: " + certs.clientKey + "\n"
            : "");
    }

    private static ApplierConfig config(String name, String start, String sourceHost, int sourcePort, String sourceUser,
                                        String sourcePassword, String sourceTls, int targetPort, String targetTls) {
        String yaml = "name: " + name + "\n"
            + "source:\n"
            + "  host: " + sourceHost + "\n"
            + "  port: " + sourcePort + "\n"
            + "  user: " + sourceUser + "\n"
            + "  password: " + sourcePassword + "\n"
            + "  server_id: 4343\n"
            + "  start: \"" + start + "\"\n"
            + "  reconnect_attempts: 0\n"
            + "  connect_timeout: 5s\n"
            + "  tls:\n" + sourceTls
            + "target:\n"
            + "  host: 127.0.0.1\n"
            + "  port: " + targetPort + "\n"
            + "  user: app\n"
            + "  password: " + TARGET_PASSWORD + "\n"
            + "  reconnect_attempts: 0\n"
            + "  connect_timeout: 5s\n"
            + "  tls:\n" + targetTls
            + "metrics:\n"
            + "  listen: off\n"
            + "apply:\n"
            + "  mode: conservative\n"
            + "  workers: 2\n";
        return new ConfigLoader().parse(yaml, "test", name);
    }
}
