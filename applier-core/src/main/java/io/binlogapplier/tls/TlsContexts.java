package io.binlogapplier.tls;

import io.binlogapplier.config.TlsConfig;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;

/** An {@link SSLContext} from a {@link TlsConfig}: its CA (or, below verify_ca, no check) and client certificate. */
final class TlsContexts {
    private TlsContexts() {
    }

    static SSLContext of(TlsConfig tls) throws IOException, GeneralSecurityException {
        TrustManager[] trust;
        if (tls.mode().verifiesCertificate()) {
            TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            f.init(KeyStores.trustStore(tls));
            trust = f.getTrustManagers();
        } else {
            trust = new TrustManager[] {new TrustingNothingChecked()};
        }
        KeyManager[] keys = null;
        if (tls.hasClientCertificate()) {
            char[] password = "in-memory".toCharArray(); // this key store never leaves the process
            KeyStore ks = KeyStores.keyStore(tls, password);
            KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            f.init(ks, password);
            keys = f.getKeyManagers();
        }
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(keys, trust, new SecureRandom());
        return c;
    }

    /** Modes preferred and required: encrypted, no certificate checked (as the MySQL clients do). */
    private static final class TrustingNothingChecked implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
