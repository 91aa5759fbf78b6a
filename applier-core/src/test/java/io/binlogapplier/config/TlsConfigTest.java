package io.binlogapplier.config;

import io.binlogapplier.harness.TestCertificates;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class TlsConfigTest {
    private static TestCertificates certs;

    @BeforeAll
    static void certificates() {
        certs = TestCertificates.create();
    }

    private static String yaml(String sourceTls, String targetTls) {
        return "source:\n  host: db1\n  user: repl\n  server_id: 7\n" + (sourceTls == null ? "" : "  tls:\n" + sourceTls)
            + "target:\n  host: db2\n  user: app\n" + (targetTls == null ? "" : "  tls:\n" + targetTls);
    }

    private static ApplierConfig parse(String yaml) {
        return new ConfigLoader(Map.<String, String>of()::get).parse(yaml, "test.yml", "t");
    }

    private static ConfigException problems(String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(yaml));
        assertThat(e).as("the configuration is rejected").isNotNull();
        return e;
    }

    /** mode required with a ca_file: accepted (encrypted), but the file is not used, and the log says so. */
    @Test
    void aCaFileUnderAModeThatVerifiesNothingIsAWarning() {
        Stderr<ApplierConfig> parsed = Stderr.of(() -> parse(yaml("    mode: verify_ca\n    ca_file: " + certs.ca + "\n",
            "    mode: required\n    ca_file: " + certs.ca + "\n")));
        String log = parsed.text();
        assertThat(parsed.result().target().tls().mode()).isEqualTo(TlsMode.REQUIRED);
        assertThat(log).contains("target.tls.mode: mode required does not verify the server's certificate, so ca_file")
            .contains("choose mode verify_ca").doesNotContain("source.tls.mode");
    }

    @Test
    void withoutATlsSectionBothSidesUsePreferredAndNoFiles() {
        ApplierConfig c = parse(yaml(null, null));
        assertThat(c.source().tls()).isEqualTo(TlsConfig.DEFAULT);
        assertThat(c.target().tls()).isEqualTo(new TlsConfig(TlsMode.PREFERRED, null, null, null));
    }

    @Test
    void readsModeAndPemFilesOfEachSide() {
        ApplierConfig c = parse(yaml("    mode: verify_identity\n    ca_file: " + certs.ca + "\n    cert_file: "
            + certs.clientCert + "\n    key_file: " + certs.clientKey + "\n", "    mode: required\n"));
        assertThat(c.source().tls()).isEqualTo(new TlsConfig(TlsMode.VERIFY_IDENTITY, certs.ca, certs.clientCert,
            certs.clientKey));
        assertThat(c.target().tls().mode()).isEqualTo(TlsMode.REQUIRED);
    }

    @Test
    void aCaFileWithoutAModeMeansVerifyCaAsForTheMysqlClients() {
        assertThat(parse(yaml(null, "    ca_file: " + certs.ca + "\n")).target().tls().mode())
            .isEqualTo(TlsMode.VERIFY_CA);
    }

    @Test
    void verifyModesWithoutACaAreAProblemNamingTheKey() {
        ConfigException e = problems(yaml("    mode: verify_ca\n", "    mode: verify_identity\n"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("source.tls.ca_file: is required with mode"
            + " verify_ca"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("target.tls.ca_file: is required with mode"
            + " verify_identity"));
    }

    @Test
    void aKeyWithoutACertificateAndTheReverseAreProblems() {
        ConfigException e = problems(yaml("    key_file: " + certs.clientKey + "\n",
            "    cert_file: " + certs.clientCert + "\n"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("source.tls.cert_file: is required with"
            + " key_file"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("target.tls.key_file: is required with"
            + " cert_file"));
    }

    @Test
    void unreadableAndWrongFilesAreProblemsNamingTheKeyButNotTheContent() throws Exception {
        Path missing = certs.dir.resolve("missing.pem");
        ConfigException e = problems(yaml("    mode: verify_ca\n    ca_file: " + missing + "\n",
            "    mode: verify_ca\n    ca_file: " + certs.clientKey + "\n    cert_file: " + certs.clientCert
                + "\n    key_file: " + certs.clientCert + "\n"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).isEqualTo("source.tls.ca_file: cannot read '" + missing
            + "' (NoSuchFileException)"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).isEqualTo("target.tls.ca_file: '" + certs.clientKey
            + "' holds no PEM certificate (-----BEGIN CERTIFICATE-----)"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).isEqualTo("target.tls.key_file: '" + certs.clientCert
            + "' holds no PEM private key (-----BEGIN PRIVATE KEY-----)"));
        String all = String.join("\n", e.problems());
        for (String line : certs.keyMaterial()) {
            assertThat(all).doesNotContain(line);
        }
    }

    @Test
    void anRsaKeyInPkcs1FormIsReadAsWell() throws Exception {
        Path pkcs1 = certs.dir.resolve("client-key-pkcs1.pem");
        Process p = new ProcessBuilder("openssl", "rsa", "-traditional", "-in", certs.clientKey.toString(), "-out",
            pkcs1.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor()).isZero();
        assertThat(Files.readString(pkcs1)).startsWith("-----BEGIN RSA PRIVATE KEY-----");
        assertThat(PemFiles.privateKey(pkcs1)).isEqualTo(PemFiles.privateKey(certs.clientKey));
    }

    @Test
    void aKeyOrPasswordFileOthersMayReadGetsAWarningNamingTheKeyNotTheContent() throws Exception {
        Path key = certs.dir.resolve("shared-key.pem");
        Files.copy(certs.clientKey, key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        Path password = certs.dir.resolve("shared-password");
        Files.writeString(password, "pw-Shared-93\n");
        Files.setPosixFilePermissions(password, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        String log = Stderr.of(() -> parse(yaml(null, "    cert_file: " + certs.clientCert + "\n    key_file: " + key
            + "\n").replace("  user: app\n", "  user: app\n  password_file: " + password + "\n"))).text();
        assertThat(log).contains("target.tls.key_file: " + key + " is readable by other users: chmod 600 it")
            .contains("target.password_file: " + password + " is readable by other users")
            .doesNotContain("pw-Shared-93");
        for (String line : certs.keyMaterial()) {
            assertThat(log).doesNotContain(line);
        }
    }

    @Test
    void filesUnderModeDisabledAreAProblemAndAnUnknownModeNamesTheChoices() {
        ConfigException e = problems(yaml("    mode: disabled\n    ca_file: " + certs.ca + "\n", "    mode: on\n"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("source.tls.mode: is disabled, so ca_file"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).isEqualTo("target.tls.mode: must be one of disabled,"
            + " preferred, required, verify_ca, verify_identity, not 'on'"));
    }
}
