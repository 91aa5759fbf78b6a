package io.binlogapplier.server;

import io.binlogapplier.harness.ServerPair;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.harness.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands against servers with TLS and users that {@code REQUIRE X509}: {@code check} shows
 * each side's encryption, {@code run} exits 18 / 28 when a side's certificate is not trusted, and
 * nothing the process prints holds a password or a line of a private key.
 */
class TlsCommandsIT {
    private static final String SOURCE_PASSWORD = "src-Cli-5e2a91";
    private static final String TARGET_PASSWORD = "tgt-Cli-0d7c44";
    private static TestCertificates certs;
    private static ServerPair pair;

    @BeforeAll
    static void start() {
        certs = TestCertificates.create();
        List<String> tls = certs.serverOptions(certs.serverCert, certs.serverKey);
        pair = ServerPair.start(tls, tls);
        pair.source.execute("SET SESSION sql_log_bin=0",
            "ALTER USER 'repl'@'%' IDENTIFIED BY '" + SOURCE_PASSWORD + "' REQUIRE X509",
            "CREATE DATABASE tls_cli", "CREATE TABLE tls_cli.t (id INT PRIMARY KEY, v VARCHAR(40))");
        pair.target.execute("CREATE USER 'app'@'%' IDENTIFIED BY '" + TARGET_PASSWORD + "' REQUIRE X509",
            "GRANT ALL ON *.* TO 'app'@'%'",
            "CREATE DATABASE tls_cli", "CREATE TABLE tls_cli.t (id INT PRIMARY KEY, v VARCHAR(40))");
    }

    @AfterAll
    static void stop() {
        if (pair != null) {
            pair.close();
        }
    }

    @Test
    void checkShowsBothSidesEncryptedAndVerifiedAndRunReplicates() {
        String start = TestApplier.currentPosition(pair.source);
        pair.source.execute("INSERT INTO tls_cli.t VALUES (1, 'over tls')");
        Path cfg = config("cli_good", start, certs.ca, certs.ca);

        InProcessCli.Output check = InProcessCli.main("check", "--config", cfg.toString());
        System.out.println("$ binlog-applier check\n" + check.text());
        CliRun.Result run = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");
        InProcessCli.Output status = InProcessCli.main("status", "--config", cfg.toString());
        System.out.println("$ binlog-applier status\n" + status.text());

        assertThat(check.text()).containsPattern("source tls\\s+PASS\\s+encrypted, TLSv1\\.[23] \\S+, certificate"
            + " verified: signed by ca_file and names 127\\.0\\.0\\.1, client certificate sent");
        assertThat(check.text()).containsPattern("target tls\\s+PASS\\s+encrypted, TLSv1\\.[23] \\S+, certificate"
            + " verified");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(pair.target.queryString("SELECT v FROM tls_cli.t WHERE id = 1")).isEqualTo("over tls");
        assertThat(status.text()).containsPattern("source tls\\s+encrypted, TLSv1\\.")
            .containsPattern("target tls\\s+encrypted, TLSv1\\.");
        assertNoSecretIn(check.text() + run.output() + status.text());
    }

    @Test
    void anUntrustedCertificateExits18ForTheSourceAnd28ForTheTargetAndCheckFailsTheRow() {
        String start = TestApplier.currentPosition(pair.source);
        pair.source.execute("INSERT INTO tls_cli.t VALUES (2, 'never')");
        Path badSource = config("cli_bad_source", start, certs.otherCa, certs.ca);
        Path badTarget = config("cli_bad_target", start, certs.ca, certs.otherCa);

        CliRun.Result source = CliRun.run(120, "run", "--config", badSource.toString(), "--until", "current");
        CliRun.Result target = CliRun.run(120, "run", "--config", badTarget.toString(), "--until", "current");
        InProcessCli.Output check = InProcessCli.main("check", "--config", badTarget.toString());
        System.out.println("$ binlog-applier check\n" + check.text());

        assertThat(source.exitCode()).as(source.output()).isEqualTo(18);
        assertThat(source.lastLine()).contains("the server's certificate is not signed by the CA in"
            + " source.tls.ca_file");
        assertThat(target.exitCode()).as(target.output()).isEqualTo(28);
        assertThat(target.lastLine()).contains("the server's certificate is not signed by the CA in"
            + " target.tls.ca_file");
        assertThat(check.code()).isEqualTo(4);
        assertThat(check.text()).containsPattern("target tls\\s+FAIL\\s+target 127\\.0\\.0\\.1:" + pair.target.port()
            + ": the server's certificate is not signed");
        assertThat(pair.target.queryLong("SELECT COUNT(*) FROM tls_cli.t WHERE id = 2")).isZero();
        assertNoSecretIn(source.output() + target.output() + check.text());
    }

    private static void assertNoSecretIn(String printed) {
        List<String> secrets = new ArrayList<>(List.of(SOURCE_PASSWORD, TARGET_PASSWORD));
        secrets.addAll(certs.keyMaterial());
        for (String s : secrets) {
            assertThat(printed).as("what the commands printed").doesNotContain(s);
        }
    }

    private static Path config(String name, String start, Path sourceCa, Path targetCa) {
        String client = "    cert_file: " + certs.clientCert + "\n    key_file: " + certs.clientKey + "\n";
        return Configs.write("name: " + name + "\n"
            + "source:\n  host: 127.0.0.1\n  port: " + pair.source.port() + "\n  user: repl\n  password: "
            + SOURCE_PASSWORD + "\n  server_id: 4545\n  start: \"" + start + "\"\n  reconnect_attempts: 0\n"
            + "  tls:\n    mode: verify_identity\n    ca_file: " + sourceCa + "\n" + client
            + "target:\n  host: 127.0.0.1\n  port: " + pair.target.port() + "\n  user: app\n  password: "
            + TARGET_PASSWORD + "\n  reconnect_attempts: 0\n"
            + "  tls:\n    mode: verify_identity\n    ca_file: " + targetCa + "\n" + client
            + "metrics:\n  listen: off\n"
            + "apply:\n  mode: conservative\n  workers: 2\n");
    }
}
