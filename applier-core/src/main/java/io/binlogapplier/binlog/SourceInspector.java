package io.binlogapplier.binlog;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.SourceConfig;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Side;
import io.binlogapplier.errors.VendorCode;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.source.SourceConnections;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Asks the source, over a plain SQL connection, what a replica must know before streaming: is it
 * MariaDB, is binary logging on and row-based, where does its binlog end, which files does it still
 * have. Errors come back as one-line {@link ApplierException}s.
 */
public final class SourceInspector implements AutoCloseable {
    private final SourceConfig config;
    private final Connection connection;
    private final String version;
    private final boolean mariadb;

    private SourceInspector(SourceConfig config, Connection connection, String version) {
        this.config = config;
        this.connection = connection;
        this.version = version;
        this.mariadb = version.toLowerCase(Locale.ROOT).contains("mariadb");
    }

    public static SourceInspector connect(SourceConfig config) {
        try {
            Connection c = SourceConnections.jdbc(config);
            String version;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
                rs.next();
                version = rs.getString(1);
            }
            return new SourceInspector(config, c, version);
        } catch (SQLException e) {
            throw SourceErrors.classify(e, config.address(), config.user(), "the start");
        }
    }

    /** The inspector's JDBC connection, for other read-only work ({@code verify}); closed with the inspector. */
    public Connection jdbc() {
        return connection;
    }

    /** The TLS version and cipher of this session ({@code TLSv1.3 TLS_AES_256_GCM_SHA384}), empty when plain text. */
    public String tls() {
        try {
            return io.binlogapplier.tls.SessionTls.describe(connection);
        } catch (SQLException e) {
            throw SourceErrors.classify(e, config.address(), config.user(), "the start");
        }
    }

    public boolean mariadb() {
        return mariadb;
    }

    /** The source's {@code VERSION()}, e.g. {@code 10.11.19-MariaDB-0+deb12u1-log}. */
    public String version() {
        return version;
    }

    /** Fails with SOURCE_BINLOG_FORMAT unless binary logging is on and row-based. */
    public void requireRowFormat() {
        String logBin = variable("log_bin");
        if (!"1".equals(logBin) && !"ON".equalsIgnoreCase(logBin)) {
            throw new ApplierException(ExitCode.SOURCE_BINLOG_FORMAT, "binary logging is off on source "
                + config.address() + ": start it with log_bin (and binlog_format=ROW, a server_id), then restart");
        }
        String format = variable("binlog_format");
        if (!"ROW".equalsIgnoreCase(format)) {
            throw new ApplierException(ExitCode.SOURCE_BINLOG_FORMAT, "source " + config.address()
                + " has binlog_format=" + format + ", but binlog-applier needs row images: SET GLOBAL binlog_format=ROW"
                + " (and binlog_format=ROW in its config file), make clients reconnect, then restart");
        }
    }

    public String variable(String name) {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@GLOBAL." + name)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            if (VendorCode.ER_UNKNOWN_SYSTEM_VARIABLE.is(e)) {
                return null;
            }
            throw SourceErrors.classify(e, config.address(), config.user(), "the start");
        }
    }

    /** Where the source's binlog ends now. */
    public BinlogCoordinates currentPosition() {
        String sql = mariadb ? "SHOW MASTER STATUS" : "SHOW BINARY LOG STATUS";
        try (Statement s = connection.createStatement(); ResultSet rs = executeStatus(s, sql)) {
            if (!rs.next()) {
                throw new ApplierException(ExitCode.SOURCE_BINLOG_FORMAT, "source " + config.address()
                    + " reports no binary log position: enable log_bin there");
            }
            return new BinlogCoordinates(rs.getString(1), rs.getLong(2));
        } catch (SQLException e) {
            throw SourceErrors.classify(e, config.address(), config.user(), "the start");
        }
    }

    private ResultSet executeStatus(Statement s, String sql) throws SQLException {
        try {
            return s.executeQuery(sql);
        } catch (SQLException e) {
            if (!mariadb && VendorCode.ER_PARSE_ERROR.is(e)) { // MySQL before 8.2 knows only SHOW MASTER STATUS
                return s.executeQuery("SHOW MASTER STATUS");
            }
            throw e;
        }
    }

    /** The source's binlog files, oldest first; null when the user may not list them. */
    public List<String> binlogFiles() {
        List<String> files = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
            while (rs.next()) {
                files.add(rs.getString(1));
            }
            return files;
        } catch (SQLException e) {
            if (ErrorClassifier.classify(e, Side.SOURCE).exitCode() == ExitCode.SOURCE_PRIVILEGE) {
                return null;
            }
            throw SourceErrors.classify(e, config.address(), config.user(), "the start");
        }
    }

    /**
     * MariaDB's GTID position at a file offset ({@code BINLOG_GTID_POS}); empty for MySQL or when
     * unknown.
     */
    public String gtidPositionAt(BinlogCoordinates at) {
        if (!mariadb) {
            return "";
        }
        try (java.sql.PreparedStatement ps = connection.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
            ps.setString(1, at.file());
            ps.setLong(2, at.offset());
            try (ResultSet rs = ps.executeQuery()) {
                String g = rs.next() ? rs.getString(1) : null;
                return g == null ? "" : g;
            }
        } catch (SQLException e) {
            return "";
        }
    }

    /** Fails with SOURCE_POSITION_UNAVAILABLE when the file is known not to be on the source. */
    public void requireFile(BinlogCoordinates at) {
        List<String> files = binlogFiles();
        if (files != null && !files.contains(at.file())) {
            throw new ApplierException(ExitCode.SOURCE_POSITION_UNAVAILABLE, "source " + config.address()
                + " no longer has binlog file " + at.file() + " (it has " + (files.isEmpty() ? "none"
                : files.get(0) + " … " + files.get(files.size() - 1)) + "): re-seed the target from a fresh copy of"
                + " the source and set source.start to that copy's position");
        }
    }

    /**
     * A FILE:POS an operator gives must be where a transaction starts (its GTID or BEGIN event, a
     * statement outside any transaction, the file's header) or the file's end: not inside an event,
     * nor inside a transaction, whose first events would be missing. Read with {@code SHOW BINLOG
     * EVENTS}; nothing is refused when that cannot be read (no privilege).
     *
     * @param what how the message names the position ("set-position", "source.start")
     * @param code the exit code of a refusal
     */
    public void requireTransactionStart(BinlogCoordinates at, String what, ExitCode code) {
        String fix = ": give the position of a transaction's first event (its GTID or BEGIN: SHOW BINLOG EVENTS on the"
            + " source), the end of a file (SHOW MASTER STATUS), or a GTID";
        if (at.offset() < 4) {
            throw new ApplierException(code, what + " " + at + " is before the file's first event" + fix);
        }
        List<String[]> events;
        try {
            events = rows("SHOW BINLOG EVENTS IN '" + at.file().replace("\\", "\\\\").replace("'", "''") + "' FROM "
                + at.offset() + " LIMIT 1");
        } catch (SQLException e) {
            if (e.getErrorCode() == 1220) { // ER_ERROR_WHEN_EXECUTING_COMMAND: "Wrong offset or I/O error"
                throw new ApplierException(code, what + " " + at + " is not where an event starts in the source's "
                    + at.file() + " (" + io.binlogapplier.errors.Messages.firstLine(e.getMessage()) + ")" + fix);
            }
            return; // not readable here: nothing known, nothing refused
        }
        if (events.isEmpty() || events.get(0).length < 6) {
            return; // the end of the file
        }
        String type = events.get(0)[2];
        String info = events.get(0)[5] == null ? "" : events.get(0)[5].trim();
        boolean inside = type.startsWith("Table_map") || type.contains("_rows") || type.equals("Xid")
            || type.equals("Intvar") || type.equals("Rand") || type.equals("User var")
            || type.equals("Query") && (info.equalsIgnoreCase("COMMIT") || info.equalsIgnoreCase("ROLLBACK"));
        if (inside) {
            throw new ApplierException(code, what + " " + at + " is inside a transaction (the event there is " + type
                + ")" + fix);
        }
    }

    /**
     * Runs a read-only statement ({@code SHOW …}, {@code SELECT …}) and returns its rows as text, for
     * diagnostics ({@code check}, {@code status}); the caller interprets SQL errors.
     */
    public List<String[]> rows(String sql, Object... parameters) throws SQLException {
        try (java.sql.PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                List<String[]> out = new ArrayList<>();
                while (rs.next()) {
                    String[] row = new String[n];
                    for (int i = 0; i < n; i++) {
                        row[i] = rs.getString(i + 1);
                    }
                    out.add(row);
                }
                return out;
            }
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // nothing to do
        }
    }
}
