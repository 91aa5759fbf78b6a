package io.binlogapplier.config;

/**
 * How a connection to a server is secured, with the meanings of the MySQL clients' {@code --ssl-mode}.
 */
public enum TlsMode {
    /** Plain text. */
    DISABLED,
    /** TLS when the server offers it, plain text otherwise; no certificate is checked. */
    PREFERRED,
    /** TLS or no connection; no certificate is checked (encrypted, but anyone on the path may pose as the server). */
    REQUIRED,
    /** TLS, and the server's certificate must be signed by {@code ca_file}. */
    VERIFY_CA,
    /** As {@link #VERIFY_CA}, and the certificate must name the host connected to ({@code host}). */
    VERIFY_IDENTITY;

    /** True when no connection may be made in plain text. */
    public boolean requiresTls() {
        return this == REQUIRED || this == VERIFY_CA || this == VERIFY_IDENTITY;
    }

    /** True when the server's certificate is checked against the CA. */
    public boolean verifiesCertificate() {
        return this == VERIFY_CA || this == VERIFY_IDENTITY;
    }

    /** The name as written in the configuration ({@code verify_identity}). */
    public String configName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
