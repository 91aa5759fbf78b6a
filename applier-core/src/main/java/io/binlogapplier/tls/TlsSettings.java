package io.binlogapplier.tls;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.network.SSLMode;
import io.binlogapplier.config.TlsConfig;
import io.binlogapplier.config.TlsMode;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.security.GeneralSecurityException;
import java.util.Properties;

/**
 * Where a {@link TlsConfig} becomes settings of the two clients we use: Connector/J's connection
 * properties and mysql-binlog-connector-java's SSL mode and socket factory. The connection factories
 * of each side ({@code source.SourceConnections}, {@code target.TargetConnections}) are the only
 * callers, so both kinds of connection to a server are secured alike.
 */
public final class TlsSettings {
    private TlsSettings() {
    }

    /** Adds Connector/J's {@code sslMode} and key store properties for {@code tls} to {@code p}. */
    public static void jdbc(TlsConfig tls, Properties p) {
        p.setProperty("sslMode", tls.mode().name());
        if (tls.mode() == TlsMode.DISABLED) {
            return;
        }
        // Only the configured files: never the JVM's default trust or key store (javax.net.ssl.*).
        p.setProperty("fallbackToSystemTrustStore", "false");
        p.setProperty("fallbackToSystemKeyStore", "false");
        if (!tls.readsFiles()) {
            return; // nothing to write: preferred and required check no certificate
        }
        KeyStores.Files12 files = KeyStores.files(tls);
        if (tls.mode().verifiesCertificate() && files.trustStore() != null) {
            p.setProperty("trustCertificateKeyStoreUrl", files.trustStore().toUri().toString());
            p.setProperty("trustCertificateKeyStoreType", "PKCS12");
            p.setProperty("trustCertificateKeyStorePassword", files.password());
        }
        if (files.keyStore() != null) {
            p.setProperty("clientCertificateKeyStoreUrl", files.keyStore().toUri().toString());
            p.setProperty("clientCertificateKeyStoreType", "PKCS12");
            p.setProperty("clientCertificateKeyStorePassword", files.password());
        }
    }

    /**
     * Sets the binlog client's SSL mode and, unless disabled, our socket factory: it trusts the
     * configured CA (nothing is checked below verify_ca), presents the client certificate, and under
     * verify_identity checks the certificate against {@code host} as configured. The library's own
     * identity check would compare with the reverse DNS name of the address, so it is not used: the
     * library is told required (TLS or no connection) and the checks are ours.
     */
    public static void binlog(TlsConfig tls, String host, int port, BinaryLogClient client) {
        if (tls.mode() == TlsMode.DISABLED) {
            client.setSSLMode(SSLMode.DISABLED);
            return;
        }
        client.setSSLMode(tls.mode() == TlsMode.PREFERRED ? SSLMode.PREFERRED : SSLMode.REQUIRED);
        client.setSslSocketFactory(binlogSocketFactory(tls, host, port));
    }

    /** The binlog client's socket factory for {@code tls} (not disabled), connecting to {@code host}. */
    static com.github.shyiko.mysql.binlog.network.SSLSocketFactory binlogSocketFactory(TlsConfig tls, String host,
                                                                                      int port) {
        boolean identity = tls.mode() == TlsMode.VERIFY_IDENTITY;
        if (!tls.readsFiles()) {
            // No file to read, so nothing to report at start: the context (about 0.1 s of JCA set-up) is
            // made when the server first offers TLS, and never under preferred against a server without it.
            // (A reconnect builds a new client and factory.)
            SSLContext[] made = new SSLContext[1];
            return plain -> {
                synchronized (made) {
                    if (made[0] == null) {
                        made[0] = context(tls);
                    }
                }
                return upgrade(made[0], plain, host, port, identity);
            };
        }
        SSLContext context = context(tls);
        return plain -> upgrade(context, plain, host, port, identity);
    }

    private static SSLContext context(TlsConfig tls) {
        try {
            return TlsContexts.of(tls);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS (" + tls.mode().name().toLowerCase(java.util.Locale.ROOT)
                + (tls.readsFiles() ? ", from the tls files" : "") + "): "
                + e.getClass().getSimpleName(), e);
        }
    }

    private static SSLSocket upgrade(SSLContext context, Socket plain, String host, int port, boolean identity)
        throws SocketException {
        try {
            SSLSocket s = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
            if (identity) {
                SSLParameters p = s.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS"); // RFC 2818: DNS or IP subject alternative names
                s.setSSLParameters(p);
            }
            return new BufferedSslSocket(s);
        } catch (SocketException e) {
            throw e;
        } catch (IOException e) {
            SocketException se = new SocketException(e.getMessage());
            se.initCause(e);
            throw se;
        }
    }
}
