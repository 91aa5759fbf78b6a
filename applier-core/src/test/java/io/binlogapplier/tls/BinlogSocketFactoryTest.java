package io.binlogapplier.tls;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceErrors;
import io.binlogapplier.config.TlsConfig;
import io.binlogapplier.config.TlsMode;
import io.binlogapplier.harness.TestCertificates;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The binlog stream's TLS, handshaking with a JSSE server socket that presents one of the test
 * certificates (the MySQL protocol around it is the library's, tested end to end in TlsIT).
 */
class BinlogSocketFactoryTest {
    private static TestCertificates certs;

    @BeforeAll
    static void certificates() {
        certs = TestCertificates.create();
    }

    /** Handshakes with a server presenting cert/key, as the binlog client would reach {@code host}. */
    private static Throwable handshake(Path cert, Path key, TlsConfig tls, String host) throws Exception {
        return handshake(cert, key, port -> TlsSettings.binlogSocketFactory(tls, host, port));
    }

    /** Handshakes with a server presenting cert/key through the factory made for its port. */
    private static Throwable handshake(Path cert, Path key,
                                       java.util.function.IntFunction<com.github.shyiko.mysql.binlog.network.SSLSocketFactory> factory)
        throws Exception {
        try (SSLServerSocket server = (SSLServerSocket) ServerTls.context(cert, key).getServerSocketFactory()
            .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread accept = new Thread(() -> {
                try (SSLSocket s = (SSLSocket) server.accept()) {
                    s.startHandshake();
                    s.getOutputStream().write(1);
                    s.getOutputStream().flush();
                } catch (IOException e) {
                    // the client refused us: what some tests expect
                }
            });
            accept.start();
            Socket plain = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            plain.setSoTimeout(5000);
            try (SSLSocket s = factory.apply(server.getLocalPort()).createSocket(plain)) {
                // the library reads a few bytes per call: the stream must be buffered (as its plain one is)
                assertThat(s.getInputStream()).isInstanceOf(java.io.BufferedInputStream.class);
                return catchThrowable(() -> {
                    s.startHandshake();
                    assertThat(s.getInputStream().read()).isEqualTo(1);
                });
            } finally {
                accept.join(5000);
            }
        }
    }

    private static TlsConfig tls(TlsMode mode, Path ca) {
        return new TlsConfig(mode, ca, null, null);
    }

    @Test
    void verifyIdentityAcceptsTheServerByTheDnsOrIpNameItsCertificateHolds() throws Exception {
        assertThat(handshake(certs.serverCert, certs.serverKey, tls(TlsMode.VERIFY_IDENTITY, certs.ca), "localhost"))
            .isNull();
        assertThat(handshake(certs.serverCert, certs.serverKey, tls(TlsMode.VERIFY_IDENTITY, certs.ca), "127.0.0.1"))
            .isNull();
    }

    @Test
    void verifyIdentityRefusesACertificateForAnotherHostAsASourceTlsFailure() throws Exception {
        Throwable t = handshake(certs.otherHostCert, certs.otherHostKey, tls(TlsMode.VERIFY_IDENTITY, certs.ca),
            "localhost");

        ApplierException e = SourceErrors.classify(t, "localhost:3306", "repl", "mysql-bin.000001:4");
        assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_TLS);
        assertThat(e.getMessage()).startsWith("source localhost:3306: the server's certificate does not name this host");
        // verify_ca trusts the same certificate: it is signed by the CA
        assertThat(handshake(certs.otherHostCert, certs.otherHostKey, tls(TlsMode.VERIFY_CA, certs.ca), "localhost"))
            .isNull();
    }

    @Test
    void verifyCaRefusesACertificateOfAnotherCaAndRequiredChecksNothing() throws Exception {
        Throwable t = handshake(certs.serverCert, certs.serverKey, tls(TlsMode.VERIFY_CA, certs.otherCa), "localhost");

        ApplierException e = SourceErrors.classify(t, "localhost:3306", "repl", "mysql-bin.000001:4");
        assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_TLS);
        assertThat(e.getMessage()).contains("not signed by the CA in source.tls.ca_file");
        assertThat(handshake(certs.serverCert, certs.serverKey, tls(TlsMode.REQUIRED, null), "wrong.example")).isNull();
    }

    @Test
    void aFactoryThatMakesItsContextWhenFirstUsedServesEveryHandshakeWithIt() throws Exception {
        // required without a client certificate reads no file, so its context is made when first needed;
        // the second handshake uses the context the first made
        com.github.shyiko.mysql.binlog.network.SSLSocketFactory once =
            TlsSettings.binlogSocketFactory(tls(TlsMode.REQUIRED, null), "localhost", 3306);

        assertThat(handshake(certs.serverCert, certs.serverKey, port -> once)).isNull();
        assertThat(handshake(certs.otherHostCert, certs.otherHostKey, port -> once)).isNull();
    }
}
