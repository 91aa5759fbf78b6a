package io.binlogapplier.tls;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** What the server says about a session's encryption ({@code SHOW SESSION STATUS LIKE 'Ssl_%'}). */
public final class SessionTls {
    private SessionTls() {
    }

    /** {@code TLSv1.3 TLS_AES_256_GCM_SHA384}, or an empty string when the session is not encrypted. */
    public static String describe(Connection c) throws SQLException {
        String version = "";
        String cipher = "";
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_%'")) {
            while (rs.next()) {
                String v = rs.getString(2) == null ? "" : rs.getString(2);
                if ("Ssl_version".equalsIgnoreCase(rs.getString(1))) {
                    version = v;
                } else if ("Ssl_cipher".equalsIgnoreCase(rs.getString(1))) {
                    cipher = v;
                }
            }
        }
        return cipher.isBlank() ? "" : (version + " " + cipher).trim();
    }
}
