package io.binlogapplier.tls;

import io.binlogapplier.config.TlsConfig;
import io.binlogapplier.config.TlsMode;
import io.binlogapplier.harness.TestCertificates;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class TlsSettingsTest {
    private static TestCertificates certs;

    @BeforeAll
    static void certificates() {
        certs = TestCertificates.create();
    }

    private static Properties jdbc(TlsConfig tls) {
        Properties p = new Properties();
        TlsSettings.jdbc(tls, p);
        return p;
    }

    @Test
    void theDefaultAsksForTlsWithoutKeyStoresOrTheJvmsDefaultStores() {
        Properties p = jdbc(TlsConfig.DEFAULT);
        assertThat(p.getProperty("sslMode")).isEqualTo("PREFERRED");
        assertThat(p.getProperty("fallbackToSystemTrustStore")).isEqualTo("false");
        assertThat(p).doesNotContainKeys("trustCertificateKeyStoreUrl", "clientCertificateKeyStoreUrl");
        assertThat(jdbc(new TlsConfig(TlsMode.DISABLED, null, null, null))).containsOnlyKeys("sslMode");
    }

    @Test
    void verifyModesGetTheCaAndClientCertificateAsKeyStoresOnlyTheOwnerMayRead() throws Exception {
        Properties p = jdbc(new TlsConfig(TlsMode.VERIFY_IDENTITY, certs.ca, certs.clientCert, certs.clientKey));

        assertThat(p.getProperty("sslMode")).isEqualTo("VERIFY_IDENTITY");
        Path trust = Path.of(URI.create(p.getProperty("trustCertificateKeyStoreUrl")));
        Path keys = Path.of(URI.create(p.getProperty("clientCertificateKeyStoreUrl")));
        assertThat(Files.getPosixFilePermissions(trust)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(keys)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.getPosixFilePermissions(trust.getParent()))
            .isEqualTo(PosixFilePermissions.fromString("rwx------"));
        java.security.KeyStore ks = java.security.KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keys)) {
            ks.load(in, p.getProperty("clientCertificateKeyStorePassword").toCharArray());
        }
        assertThat(ks.isKeyEntry("client")).isTrue();
    }
}
