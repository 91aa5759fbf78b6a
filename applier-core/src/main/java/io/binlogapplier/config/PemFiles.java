package io.binlogapplier.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM certificates and private keys (as {@code openssl} writes them). Errors are
 * {@link IllegalArgumentException}s whose message says what is wrong with the file, never its
 * content.
 */
public final class PemFiles {
    private static final Pattern BLOCK = Pattern.compile(
        "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

    private PemFiles() {
    }

    /** Every certificate in the file, in order; at least one. */
    public static List<X509Certificate> certificates(Path file) throws IOException {
        List<X509Certificate> out = new ArrayList<>();
        try {
            CertificateFactory f = CertificateFactory.getInstance("X.509");
            for (Block b : blocks(file)) {
                if (b.type.equals("CERTIFICATE")) {
                    out.add((X509Certificate) f.generateCertificate(new ByteArrayInputStream(b.der)));
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("holds a certificate that cannot be parsed (" + e.getClass().getSimpleName()
                + ")");
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        return out;
    }

    /** The private key in the file: PKCS#8 ({@code BEGIN PRIVATE KEY}) or PKCS#1 RSA ({@code BEGIN RSA PRIVATE KEY}). */
    public static PrivateKey privateKey(Path file) throws IOException {
        for (Block b : blocks(file)) {
            switch (b.type) {
                case "PRIVATE KEY":
                    return pkcs8(b.der);
                case "RSA PRIVATE KEY":
                    return pkcs8(rsaPkcs1ToPkcs8(b.der));
                case "ENCRYPTED PRIVATE KEY":
                    throw new IllegalArgumentException("holds an encrypted key: binlog-applier needs it unencrypted"
                        + " (openssl pkey -in KEY -out KEY.plain), readable by its user only (chmod 600)");
                case "EC PRIVATE KEY":
                    throw new IllegalArgumentException("holds an EC key in SEC1 form: convert it to PKCS#8 with"
                        + " openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8");
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
    }

    /**
     * True when any user may read the file (POSIX file systems only). Group read is fine: the
     * documented set-up is mode 0640 with the service's own group.
     */
    public static boolean readableByOthers(Path file) {
        try {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
            return p.contains(PosixFilePermission.OTHERS_READ);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static PrivateKey pkcs8(byte[] der) {
        for (String algorithm : new String[] {"RSA", "EC", "Ed25519", "Ed448"}) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // try the next algorithm
            }
        }
        throw new IllegalArgumentException("holds a private key that is not RSA, EC or EdDSA in PKCS#8 form");
    }

    /** Wraps a PKCS#1 RSAPrivateKey in a PKCS#8 PrivateKeyInfo (version 0, rsaEncryption, NULL). */
    private static byte[] rsaPkcs1ToPkcs8(byte[] pkcs1) {
        byte[] algorithm = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01,
            0x01, 0x05, 0x00};
        byte[] version = {0x02, 0x01, 0x00};
        byte[] octets = der(0x04, pkcs1);
        byte[] body = new byte[version.length + algorithm.length + octets.length];
        System.arraycopy(version, 0, body, 0, version.length);
        System.arraycopy(algorithm, 0, body, version.length, algorithm.length);
        System.arraycopy(octets, 0, body, version.length + algorithm.length, octets.length);
        return der(0x30, body);
    }

    private static byte[] der(int tag, byte[] content) {
        byte[] length;
        if (content.length < 128) {
            length = new byte[] {(byte) content.length};
        } else {
            byte[] n = BigInteger.valueOf(content.length).toByteArray();
            int start = n[0] == 0 ? 1 : 0;
            length = new byte[n.length - start + 1];
            length[0] = (byte) (0x80 | (n.length - start));
            System.arraycopy(n, start, length, 1, n.length - start);
        }
        byte[] out = new byte[1 + length.length + content.length];
        out[0] = (byte) tag;
        System.arraycopy(length, 0, out, 1, length.length);
        System.arraycopy(content, 0, out, 1 + length.length, content.length);
        return out;
    }

    private record Block(String type, byte[] der) {
    }

    private static List<Block> blocks(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        List<Block> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            try {
                out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("holds a PEM block (" + m.group(1) + ") that is not valid base64");
            }
        }
        return out;
    }
}
