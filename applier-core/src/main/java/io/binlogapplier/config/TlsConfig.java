package io.binlogapplier.config;

import java.nio.file.Path;

/**
 * The {@code source.tls} or {@code target.tls} section. Files are PEM; each is null when not given.
 * Validated at load: a file that cannot be read or parsed, a key without a certificate (or the
 * reverse) and {@code verify_*} without a CA are configuration errors.
 *
 * @param mode how the connection is secured
 * @param caFile the certificate authorities the server's certificate must be signed by
 * @param certFile our client certificate (for servers whose users {@code REQUIRE X509})
 * @param keyFile the private key of {@code certFile}
 */
public record TlsConfig(TlsMode mode, Path caFile, Path certFile, Path keyFile) {
    /** No {@code tls:} section: TLS when the server offers it, nothing verified. */
    public static final TlsConfig DEFAULT = new TlsConfig(TlsMode.PREFERRED, null, null, null);

    public boolean hasClientCertificate() {
        return certFile != null && keyFile != null;
    }

    /** Setting up TLS reads files: the CA the server's certificate is verified with, or our certificate. */
    public boolean readsFiles() {
        return mode.verifiesCertificate() || hasClientCertificate();
    }
}
