package io.binlogapplier.tls;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceErrors;
import io.binlogapplier.errors.Side;
import io.binlogapplier.pipeline.TargetErrors;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class TlsFailuresTest {
    private static SQLException driver(Throwable cause) {
        return new SQLException("Communications link failure", "08S01", 0, cause);
    }

    private static SSLHandshakeException handshake(String message, Throwable cause) {
        SSLHandshakeException e = new SSLHandshakeException(message);
        e.initCause(cause);
        return e;
    }

    @Test
    void aServerWithoutTlsUnderRequiredIsTheSidesTlsExitCodeOnBothClients() {
        ApplierException jdbc = TargetErrors.connect(new SQLException("SSL Connection required, but not provided by"
            + " server.", "08001"), "db2:3306");
        ApplierException binlog = SourceErrors.classify(new IOException("MySQL server does not support SSL"),
            "db1:3306", "repl", "mysql-bin.000001:4");

        assertThat(jdbc.exitCode()).isEqualTo(ExitCode.TARGET_TLS);
        assertThat(jdbc.getMessage()).startsWith("target db2:3306 does not offer TLS, but target.tls.mode requires it");
        assertThat(binlog.exitCode()).isEqualTo(ExitCode.SOURCE_TLS);
        assertThat(binlog.getMessage()).startsWith("source db1:3306 does not offer TLS, but source.tls.mode requires it");
        assertThat(ExitCode.SOURCE_TLS.restartMayHelp()).isFalse();
        assertThat(ExitCode.TARGET_TLS.restartMayHelp()).isFalse();
    }

    @Test
    void aCertificateNotSignedByTheCaNamesTheCaFile() {
        Throwable pkix = handshake("PKIX path validation failed", new CertPathValidatorException("signature check failed"));

        ApplierException e = TlsFailures.of(driver(pkix), Side.SOURCE, "db1:3306");

        assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_TLS);
        assertThat(e.getMessage()).startsWith("source db1:3306: the server's certificate is not signed by the CA in"
            + " source.tls.ca_file (PKIX path validation failed)");
    }

    @Test
    void aCertificateForAnotherHostSaysSoOnEitherSide() {
        Throwable jsse = handshake("No subject alternative names matching IP address 10.0.0.5 found",
            new CertificateException("No subject alternative names matching IP address 10.0.0.5 found"));

        ApplierException e = TlsFailures.of(driver(jsse), Side.TARGET, "10.0.0.5:3306");

        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_TLS);
        assertThat(e.getMessage()).contains("the server's certificate does not name this host");
    }

    @Test
    void aRefusedClientCertificateNamesCertFile() {
        ApplierException e = TlsFailures.of(driver(handshake("Received fatal alert: unknown_ca", null)), Side.TARGET,
            "db2:3306");

        assertThat(e.getMessage()).startsWith("target db2:3306 refused our client certificate").contains("cert_file");
    }

    @Test
    void networkFailuresDuringOrAroundTheHandshakeStayRetryable() {
        assertThat(TlsFailures.of(driver(handshake("Remote host terminated the handshake", new EOFException())),
            Side.SOURCE, "db1:3306")).isNull();
        assertThat(TlsFailures.of(driver(new ConnectException("Connection refused")), Side.SOURCE, "db1:3306")).isNull();
        assertThat(SourceErrors.classify(new EOFException("closed"), "db1:3306", "repl", "x").exitCode())
            .isEqualTo(ExitCode.SOURCE_UNREACHABLE);
    }
}
