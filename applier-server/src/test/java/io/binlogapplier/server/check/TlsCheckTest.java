package io.binlogapplier.server.check;

import io.binlogapplier.config.TlsConfig;
import io.binlogapplier.config.TlsMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TlsCheckTest {
    private static final Map<String, String> PLAIN = Map.of("Ssl_cipher", "", "Ssl_version", "");
    private static final Map<String, String> TLS13 = Map.of("Ssl_cipher", "TLS_AES_256_GCM_SHA384",
        "Ssl_version", "TLSv1.3");

    private static TlsConfig mode(TlsMode m) {
        return new TlsConfig(m, m.verifiesCertificate() ? Path.of("/etc/ca.pem") : null, null, null);
    }

    @Test
    void plainTextToAnotherMachineIsAWarningNamingTheFix() {
        CheckResult r = TlsCheck.row("source", "192.0.2.10", TlsConfig.DEFAULT, PLAIN);
        assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.WARN);
        assertThat(r.name()).isEqualTo("source tls");
        assertThat(r.detail()).startsWith("not encrypted (source.tls.mode preferred)").contains("verify_identity");
    }

    @Test
    void plainTextOnLoopbackPasses() {
        assertThat(TlsCheck.row("target", "127.0.0.1", TlsConfig.DEFAULT, PLAIN).verdict())
            .isEqualTo(CheckResult.Verdict.PASS);
        assertThat(TlsCheck.row("target", "localhost", TlsConfig.DEFAULT, PLAIN).verdict())
            .isEqualTo(CheckResult.Verdict.PASS);
    }

    @Test
    void plainTextUnderAModeThatRequiresTlsFails() {
        CheckResult r = TlsCheck.row("target", "127.0.0.1", mode(TlsMode.REQUIRED), PLAIN);
        assertThat(r.verdict()).isEqualTo(CheckResult.Verdict.FAIL);
    }

    @Test
    void anEncryptedSessionShowsVersionCipherAndWhatWasVerified() {
        assertThat(TlsCheck.row("source", "db1", mode(TlsMode.VERIFY_IDENTITY), TLS13).detail())
            .isEqualTo("encrypted, TLSv1.3 TLS_AES_256_GCM_SHA384, certificate verified: signed by ca_file and names db1");
        assertThat(TlsCheck.row("source", "db1", mode(TlsMode.REQUIRED), TLS13).detail())
            .isEqualTo("encrypted, TLSv1.3 TLS_AES_256_GCM_SHA384, certificate not verified (source.tls.mode required)");
        assertThat(TlsCheck.row("source", "db1", mode(TlsMode.VERIFY_CA), TLS13).verdict())
            .isEqualTo(CheckResult.Verdict.PASS);
    }
}
