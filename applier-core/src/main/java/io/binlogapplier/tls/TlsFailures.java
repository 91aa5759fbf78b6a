package io.binlogapplier.tls;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;

import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Locale;

/**
 * Recognises a connection that failed because of TLS (the server has none under a mode that needs
 * it, its certificate is not signed by the CA, it names another host, the handshake is refused) and
 * words it as one line naming side, cause and fix, with the side's TLS exit code: no restart helps.
 * Pure.
 */
public final class TlsFailures {
    private TlsFailures() {
    }

    /** The TLS failure {@code t} is, or null when it is none (then the caller classifies it as before). */
    public static ApplierException of(Throwable t, Side side, String address) {
        String key = side.name().toLowerCase(Locale.ROOT) + ".tls";
        ExitCode code = side == Side.SOURCE ? ExitCode.SOURCE_TLS : ExitCode.TARGET_TLS;
        String what = side.name().toLowerCase(Locale.ROOT) + (address == null ? "" : " " + address);
        Throwable handshake = null;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = c.getMessage() == null ? "" : c.getMessage();
            String lower = m.toLowerCase(Locale.ROOT);
            // Connector/J: "SSL Connection required, but not provided by server."; the binlog library:
            // "MySQL server does not support SSL".
            if (lower.contains("not provided by server") || lower.contains("does not support ssl")
                || lower.contains("doesn't support ssl") || lower.contains("server does not support tls")) {
                return new ApplierException(code, what + " does not offer TLS, but " + key + ".mode requires it:"
                    + " start the server with ssl_cert and ssl_key (and ssl_ca), or set " + key + ".mode to preferred", t);
            }
            if (identity(c, lower)) {
                return new ApplierException(code, what + ": the server's certificate does not name this host ("
                    + Messages.firstLine(m) + "): connect by a name the certificate holds (its subject alternative"
                    + " names), or give the server a certificate for this name", t);
            }
            if (c instanceof CertPathValidatorException || c instanceof CertPathBuilderException
                || lower.contains("pkix path") || lower.contains("unable to find valid certification path")) {
                return new ApplierException(code, what + ": the server's certificate is not signed by the CA in "
                    + key + ".ca_file (" + Messages.firstLine(m) + "): give " + key + ".ca_file the CA that signed the"
                    + " server's certificate (openssl s_client -showcerts shows its issuer)", t);
            }
            if (c instanceof SSLHandshakeException && handshake == null) {
                handshake = c;
            }
        }
        if (handshake != null) {
            String m = handshake.getMessage() == null ? "" : handshake.getMessage();
            String lower = m.toLowerCase(Locale.ROOT);
            if (lower.contains("terminated the handshake") || handshake.getCause() instanceof java.io.EOFException) {
                return null; // the connection broke during the handshake: a network failure, retried as such
            }
            if (lower.contains("unknown_ca") || lower.contains("bad_certificate") || lower.contains("certificate_unknown")
                || lower.contains("certificate_required")) {
                return new ApplierException(code, what + " refused our client certificate (" + Messages.firstLine(m)
                    + "): give " + key + ".cert_file and key_file a certificate signed by the CA in the server's"
                    + " ssl_ca", t);
            }
            return new ApplierException(code, what + ": the TLS handshake failed (" + Messages.firstLine(m) + "): check "
                + key + " and the server's ssl settings (TLS versions, ciphers)", t);
        }
        return null;
    }

    private static boolean identity(Throwable c, String lower) {
        if (c instanceof SSLPeerUnverifiedException) {
            return true;
        }
        return (c instanceof CertificateException || c.getClass().getSimpleName().equals("IdentityVerificationException"))
            && (lower.contains("subject alternative") || lower.contains("no name matching")
            || lower.contains("identity") || lower.contains("hostname"));
    }
}
