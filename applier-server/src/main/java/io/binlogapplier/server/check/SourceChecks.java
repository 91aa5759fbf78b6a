package io.binlogapplier.server.check;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.SourceConfig;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import io.binlogapplier.errors.VendorCode;
import io.binlogapplier.privilege.Grants;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The source's rows of {@code check}, over the SQL connection of a {@link SourceInspector}. Reads
 * only: it never opens a binlog dump (that would evict a running replica with our server_id).
 */
final class SourceChecks {

    private final SourceConfig config;
    private final SourceInspector source;

    SourceChecks(SourceConfig config, SourceInspector source) {
        this.config = config;
        this.source = source;
    }

    List<CheckResult> all() {
        List<CheckResult> out = new ArrayList<>();
        out.add(binaryLog());
        out.add(rowImage());
        out.add(events());
        out.add(gtids());
        out.add(serverId());
        out.add(privileges());
        // The binlog connection negotiates TLS under every source.tls.mode but disabled.
        MysqlRows.secureTransport(source.variable("require_secure_transport"),
            config.tls().mode() != io.binlogapplier.config.TlsMode.DISABLED).ifPresent(out::add);
        MysqlRows.compression(source.mariadb(), source.mariadb() ? null
            : source.variable("binlog_transaction_compression")).ifPresent(out::add);
        return out;
    }

    private CheckResult binaryLog() {
        String name = "source binlog_format";
        try {
            source.requireRowFormat();
            return CheckResult.pass(name, "log_bin=ON, binlog_format=ROW (global)");
        } catch (ApplierException e) {
            return CheckResult.fail(name, e.getMessage());
        }
    }

    private CheckResult rowImage() {
        String name = "source binlog_row_image";
        String image = source.variable("binlog_row_image");
        String v = image == null ? "FULL" : image.toUpperCase(Locale.ROOT);
        return switch (v) {
            case "FULL" -> CheckResult.pass(name, "FULL: every column of every changed row");
            case "NOBLOB" -> CheckResult.warn(name, "NOBLOB: applied exactly (unchanged BLOB/TEXT columns are left as"
                + " the target has them), but write sets miss keys on BLOB/TEXT columns; FULL is the tested default:"
                + " SET GLOBAL binlog_row_image=FULL");
            case "MINIMAL" -> CheckResult.warn(name, "MINIMAL: applied exactly by primary key, but optimistic mode sees"
                + " only the keys whose columns are in each image and leaves the rest to the lock-conflict safety net"
                + " (more retries); SET GLOBAL binlog_row_image=FULL to avoid that");
            default -> CheckResult.warn(name, v + ": not a row image binlog-applier was tested with;"
                + " SET GLOBAL binlog_row_image=FULL");
        };
    }

    /** Event encodings we refuse: MariaDB compressed events, MySQL partial JSON updates. */
    private CheckResult events() {
        String name = "source event encoding";
        if (source.mariadb()) {
            String compress = source.variable("log_bin_compress");
            if (compress != null && (compress.equals("1") || compress.equalsIgnoreCase("ON"))) {
                return CheckResult.fail(name, "log_bin_compress=ON: binlog-applier cannot read compressed MariaDB"
                    + " events; SET GLOBAL log_bin_compress=OFF (and in the config file)");
            }
            return CheckResult.pass(name, "log_bin_compress=OFF");
        }
        String options = source.variable("binlog_row_value_options");
        if (options != null && options.toUpperCase(Locale.ROOT).contains("PARTIAL_JSON")) {
            return CheckResult.fail(name, "binlog_row_value_options=PARTIAL_JSON: binlog-applier cannot apply partial"
                + " JSON updates; SET GLOBAL binlog_row_value_options=''");
        }
        return CheckResult.pass(name, "no partial JSON updates (binlog_row_value_options='')");
    }

    private CheckResult gtids() {
        String name = "source GTIDs";
        if (source.mariadb()) {
            String strict = source.variable("gtid_strict_mode");
            String domain = source.variable("gtid_domain_id");
            String pos = source.variable("gtid_binlog_pos");
            String found = "gtid_domain_id=" + domain + ", gtid_binlog_pos=" + (pos == null || pos.isEmpty() ? "(empty)"
                : abbreviate(pos));
            if ("1".equals(strict) || "ON".equalsIgnoreCase(strict)) {
                return CheckResult.pass(name, "gtid_strict_mode=ON, " + found);
            }
            return CheckResult.warn(name, "gtid_strict_mode=OFF, " + found + ": GTID positions and --until GTID"
                + " assume sequence numbers grow in each domain; SET GLOBAL gtid_strict_mode=ON (and in the config"
                + " file) makes the source enforce it");
        }
        String mode = source.variable("gtid_mode");
        if ("ON".equalsIgnoreCase(mode)) {
            return CheckResult.pass(name, "gtid_mode=ON, gtid_executed=" + abbreviate(source.variable("gtid_executed")));
        }
        return CheckResult.warn(name, "gtid_mode=" + mode + ": positions are file:offset only, which works;"
            + " source.start and --until by GTID need gtid_mode=ON");
    }

    private CheckResult serverId() {
        String name = "source server_id";
        long ours = config.serverId();
        String theirs = source.variable("server_id");
        if (theirs != null && theirs.equals(Long.toString(ours))) {
            return CheckResult.fail(name, "source.server_id " + ours + " is the source's own server_id: set"
                + " source.server_id to a value no server or replica of this source uses");
        }
        List<String[]> replicas;
        try {
            replicas = replicas();
        } catch (SQLException e) {
            if (denied(e, Side.SOURCE)) {
                return CheckResult.warn(name, ours + " differs from the source's " + theirs + "; the source user may"
                    + " not list replicas (" + Messages.firstLine(e) + "): GRANT " + (source.mariadb()
                    ? "REPLICATION MASTER ADMIN" : "REPLICATION SLAVE") + " to let check look, or make sure no"
                    + " other replica uses " + ours);
            }
            return CheckResult.warn(name, "could not list the source's replicas (" + Messages.firstLine(e) + ")");
        }
        for (String[] r : replicas) {
            if (r.length > 0 && Long.toString(ours).equals(r[0])) {
                String at = (r.length > 2 ? r[1] + ":" + r[2] : "?");
                return CheckResult.fail(name, "server_id " + ours + " is used by the replica at " + at
                    + " (SHOW " + (source.mariadb() ? "SLAVE HOSTS" : "REPLICAS") + "): set source.server_id to a"
                    + " value no other replica uses");
            }
        }
        return CheckResult.pass(name, ours + ": not the source's (" + theirs + ") nor any of its " + replicas.size()
            + " registered replicas'");
    }

    /** Rows of Server_id, Host, Port. */
    private List<String[]> replicas() throws SQLException {
        if (source.mariadb()) {
            return source.rows("SHOW SLAVE HOSTS");
        }
        try {
            return source.rows("SHOW REPLICAS");
        } catch (SQLException e) {
            if (VendorCode.ER_PARSE_ERROR.is(e)) { // MySQL before 8.0.22
                return source.rows("SHOW SLAVE HOSTS");
            }
            throw e;
        }
    }

    private CheckResult privileges() {
        String name = "source privileges";
        String monitor = source.mariadb() ? "BINLOG MONITOR" : "REPLICATION CLIENT";
        try {
            source.currentPosition();
            source.rows("SHOW BINARY LOGS");
        } catch (ApplierException e) {
            return CheckResult.fail(name, e.getMessage());
        } catch (SQLException e) {
            if (denied(e, Side.SOURCE)) {
                return CheckResult.fail(name, "user '" + config.user() + "' may not run SHOW BINARY LOGS ("
                    + Messages.firstLine(e) + "): GRANT " + monitor + " ON *.* TO the user");
            }
            return CheckResult.fail(name, "SHOW BINARY LOGS failed: " + Messages.firstLine(e));
        }
        Grants grants;
        try {
            grants = Grants.parse(source.rows("SHOW GRANTS").stream().map(r -> r[0]).toList());
        } catch (SQLException e) {
            return CheckResult.warn(name, monitor + " works; SHOW GRANTS failed (" + Messages.firstLine(e)
                + "), so REPLICATION SLAVE is unchecked");
        }
        if (grants.global("REPLICATION SLAVE")) {
            return CheckResult.pass(name, "REPLICATION SLAVE (granted), " + monitor + " (SHOW BINARY LOGS works)");
        }
        if (grants.hasRoles()) {
            return CheckResult.warn(name, monitor + " works; REPLICATION SLAVE is not granted directly, perhaps"
                + " through a role (not checked): run needs it to read the binlog");
        }
        return CheckResult.fail(name, "user '" + config.user() + "' lacks REPLICATION SLAVE: GRANT REPLICATION SLAVE, "
            + monitor + " ON *.* TO the user");
    }

    /** True when {@code side}'s server refused the user, or the user lacks a privilege. */
    static boolean denied(SQLException e, Side side) {
        ExitCode x = ErrorClassifier.classify(e, side).exitCode();
        return x == side.privilege() || x == side.accessDenied();
    }

    static String abbreviate(String s) {
        if (s == null) {
            return "(none)";
        }
        String t = s.replace("\n", "");
        return t.length() > 80 ? t.substring(0, 77) + "…" : t;
    }
}
