package io.binlogapplier.server.check;

import io.binlogapplier.config.TlsConfig;
import io.binlogapplier.config.TlsMode;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code source tls} and {@code target tls} rows of {@code check}: is the session encrypted
 * ({@code SHOW SESSION STATUS LIKE 'Ssl_%'}), with which TLS version and cipher, and was the
 * server's certificate verified (by the configured mode: the connection exists, so what the mode
 * checks passed). WARN on plain text to a host that is not loopback; FAIL when the mode asks for
 * TLS the session does not have.
 */
final class TlsCheck {
    private TlsCheck() {
    }

    /** The session status of {@code c} ({@code Ssl_cipher}, {@code Ssl_version} …) by name. */
    static Map<String, String> sessionStatus(Connection c) throws SQLException {
        Map<String, String> out = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_%'")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** Rows of {@code SHOW SESSION STATUS} as returned by {@code SourceInspector.rows}. */
    static Map<String, String> sessionStatus(List<String[]> rows) {
        Map<String, String> out = new HashMap<>();
        for (String[] r : rows) {
            out.put(r[0], r[1]);
        }
        return out;
    }

    /** @param side {@code source} or {@code target}, as in the configuration */
    static CheckResult row(String side, String host, TlsConfig tls, Map<String, String> status) {
        String name = side + " tls";
        String key = side + ".tls.mode";
        String cipher = status.getOrDefault("Ssl_cipher", "");
        String version = status.getOrDefault("Ssl_version", "");
        boolean encrypted = !cipher.isBlank();
        TlsMode mode = tls.mode();
        if (!encrypted) {
            if (mode.requiresTls()) {
                return CheckResult.fail(name, "not encrypted, but " + key + " is " + mode.configName()
                    + ": start the server with ssl_cert and ssl_key");
            }
            if (!loopback(host)) {
                return CheckResult.warn(name, "not encrypted (" + key + " " + mode.configName() + "): every row and the"
                    + " password cross the network to " + host + " in clear text; give the server a certificate and set"
                    + " " + key + " to verify_identity (docs/tls.md)");
            }
            return CheckResult.pass(name, "not encrypted (" + key + " " + mode.configName() + "; " + host
                + " is this machine)");
        }
        String verified = switch (mode) {
            case VERIFY_IDENTITY -> "certificate verified: signed by ca_file and names " + host;
            case VERIFY_CA -> "certificate verified: signed by ca_file (its host name is not checked)";
            default -> "certificate not verified (" + key + " " + mode.configName() + ")";
        };
        String client = tls.hasClientCertificate() ? ", client certificate sent" : "";
        return CheckResult.pass(name, "encrypted, " + version + " " + cipher + ", " + verified + client);
    }

    static boolean loopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]")) {
            return true;
        }
        try {
            InetAddress[] all = InetAddress.getAllByName(host);
            for (InetAddress a : all) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return all.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
