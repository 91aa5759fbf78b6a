package io.binlogapplier.tls;

import io.binlogapplier.config.PemFiles;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;

/** The {@link SSLContext} of a server we run (the metrics endpoint) from a PEM certificate chain and key. */
public final class ServerTls {
    private ServerTls() {
    }

    public static SSLContext context(Path certFile, Path keyFile) throws IOException, GeneralSecurityException {
        char[] password = "in-memory".toCharArray(); // this key store never leaves the process
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("server", PemFiles.privateKey(keyFile), password,
            PemFiles.certificates(certFile).toArray(new X509Certificate[0]));
        KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        f.init(ks, password);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(f.getKeyManagers(), null, new SecureRandom());
        return c;
    }
}
