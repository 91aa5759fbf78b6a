package io.binlogapplier.tls;

import io.binlogapplier.config.PemFiles;
import io.binlogapplier.config.TlsConfig;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The PEM files of a {@link TlsConfig} as Java key stores: in memory for our own SSL contexts, and
 * as PKCS#12 files for Connector/J, which takes key stores only by URL. Those files are written once
 * per process into a directory only the owner may enter (0700, files 0600), with a random password
 * that exists only in this process, and are deleted at exit. Thread-safe.
 */
final class KeyStores {
    /** Key stores Connector/J reads; {@code password} is random, per process. */
    record Files12(Path trustStore, Path keyStore, String password) {
    }

    private static final ConcurrentHashMap<TlsConfig, Files12> WRITTEN = new ConcurrentHashMap<>();
    private static volatile Path directory;

    private KeyStores() {
    }

    /** The CA certificates of {@code tls} as a trust store; null when it names no CA. */
    static KeyStore trustStore(TlsConfig tls) throws IOException, GeneralSecurityException {
        if (tls.caFile() == null) {
            return null;
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        List<X509Certificate> cas = PemFiles.certificates(tls.caFile());
        for (int i = 0; i < cas.size(); i++) {
            ks.setCertificateEntry("ca-" + i, cas.get(i));
        }
        return ks;
    }

    /** The client certificate and key of {@code tls} as a key store under {@code password}; null when none. */
    static KeyStore keyStore(TlsConfig tls, char[] password) throws IOException, GeneralSecurityException {
        if (!tls.hasClientCertificate()) {
            return null;
        }
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        List<X509Certificate> chain = PemFiles.certificates(tls.certFile());
        ks.setKeyEntry("client", PemFiles.privateKey(tls.keyFile()), password,
            chain.toArray(new X509Certificate[0]));
        return ks;
    }

    /** The key stores of {@code tls} as files, written at the first call. */
    static Files12 files(TlsConfig tls) {
        return WRITTEN.computeIfAbsent(tls, KeyStores::write);
    }

    private static Files12 write(TlsConfig tls) {
        try {
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            Path dir = directory();
            KeyStore trust = trustStore(tls);
            KeyStore keys = keyStore(tls, password.toCharArray());
            String id = Integer.toHexString(System.identityHashCode(tls)) + "-" + WRITTEN.size();
            Path trustFile = trust == null ? null : store(trust, dir.resolve("trust-" + id + ".p12"), password);
            Path keyFile = keys == null ? null : store(keys, dir.resolve("client-" + id + ".p12"), password);
            return new Files12(trustFile, keyFile, password);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build a key store from the tls files: " + e.getMessage(), e);
        }
    }

    private static Path store(KeyStore ks, Path file, String password) throws IOException, GeneralSecurityException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        file.toFile().deleteOnExit();
        try (OutputStream out = Files.newOutputStream(file)) {
            ks.store(out, password.toCharArray());
        }
        return file;
    }

    private static synchronized Path directory() throws IOException {
        if (directory == null) {
            Path d = Files.createTempDirectory("binlog-applier-tls-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            d.toFile().deleteOnExit(); // runs after the files' (deleteOnExit is last in, first out)
            directory = d;
        }
        return directory;
    }
}
