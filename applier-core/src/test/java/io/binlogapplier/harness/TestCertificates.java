package io.binlogapplier.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Certificates made with {@code openssl} for TLS tests, in a temporary directory: a CA; a server
 * certificate for 127.0.0.1 and localhost; a server certificate for another host name
 * (wrong.example), also signed by the CA; a client certificate; and a second, unrelated CA. Keys
 * are PKCS#8 PEM, mode 0600.
 */
public final class TestCertificates {
    public final Path dir;
    public final Path ca;
    public final Path serverCert;
    public final Path serverKey;
    public final Path otherHostCert;
    public final Path otherHostKey;
    public final Path clientCert;
    public final Path clientKey;
    public final Path otherCa;

    private TestCertificates(Path dir) {
        this.dir = dir;
        this.ca = dir.resolve("ca.pem");
        this.serverCert = dir.resolve("server.pem");
        this.serverKey = dir.resolve("server-key.pem");
        this.otherHostCert = dir.resolve("other-host.pem");
        this.otherHostKey = dir.resolve("other-host-key.pem");
        this.clientCert = dir.resolve("client.pem");
        this.clientKey = dir.resolve("client-key.pem");
        this.otherCa = dir.resolve("other-ca.pem");
    }

    public static TestCertificates create() {
        try {
            Path dir = Files.createTempDirectory("binlog-applier-certs-");
            TestCertificates c = new TestCertificates(dir);
            c.selfSigned("ca", "binlog-applier test CA");
            c.selfSigned("other-ca", "unrelated test CA");
            c.signed("server", "127.0.0.1", "subjectAltName=IP:127.0.0.1,DNS:localhost");
            c.signed("other-host", "wrong.example", "subjectAltName=DNS:wrong.example");
            c.signed("client", "binlog-applier test client", "extendedKeyUsage=clientAuth");
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The contents of every private key (PEM), for scans that must not find them. */
    public List<String> keyMaterial() {
        List<String> out = new ArrayList<>();
        for (String name : List.of("ca-key.pem", "other-ca-key.pem", "server-key.pem", "other-host-key.pem",
            "client-key.pem")) {
            try {
                for (String line : Files.readAllLines(dir.resolve(name), StandardCharsets.US_ASCII)) {
                    if (!line.startsWith("-----")) {
                        out.add(line);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** mariadbd options serving {@code cert}/{@code key}, trusting client certificates of the CA. */
    public List<String> serverOptions(Path cert, Path key) {
        return List.of("--ssl-ca=" + ca, "--ssl-cert=" + cert, "--ssl-key=" + key);
    }

    private void selfSigned(String name, String cn) throws IOException {
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=" + cn,
            "-keyout", dir.resolve(name + "-key.pem").toString(), "-out", dir.resolve(name + ".pem").toString(),
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    }

    private void signed(String name, String cn, String extension) throws IOException {
        Path key = dir.resolve(name + "-key.pem");
        Path csr = dir.resolve(name + ".csr");
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, extension + "\n");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + cn, "-keyout", key.toString(),
            "-out", csr.toString());
        openssl("x509", "-req", "-in", csr.toString(), "-CA", ca.toString(), "-CAkey", dir.resolve("ca-key.pem").toString(),
            "-CAcreateserial", "-days", "2", "-extfile", ext.toString(), "-out", dir.resolve(name + ".pem").toString());
    }

    private void openssl(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add("openssl");
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException("openssl failed: " + String.join(" ", cmd) + "\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        for (String f : new String[] {"ca-key.pem", "other-ca-key.pem", "server-key.pem", "other-host-key.pem",
            "client-key.pem"}) {
            Path k = dir.resolve(f);
            if (Files.exists(k)) {
                Files.setPosixFilePermissions(k, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            }
        }
    }
}
