package io.binlogapplier.server.check;

import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.apply.ServerVersion;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.privilege.Grants;
import io.binlogapplier.privilege.TargetPrivileges;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code check} rows that matter most with MySQL 8.0/8.4 as source or target (issue 17), as pure
 * functions of what was read, so each verdict is tested without a MySQL server.
 */
final class MysqlRows {
    static final String TRIGGERS = "target BINLOG for trigger tables";
    static final String HIDDEN = "target BINLOG for hidden columns";
    static final String JSON = "target JSON value types";
    static final String SESSION = "target session variables";
    static final String SECURE_TRANSPORT = "source require_secure_transport";
    static final String COMPRESSION = "source binlog_transaction_compression";
    static final String GIPK = "target invisible primary keys";

    private MysqlRows() {
    }

    private static boolean on(String value) {
        return value != null && (value.equals("1") || value.equalsIgnoreCase("ON"));
    }

    /**
     * Rows of tables with triggers on the target go as BINLOG statements under every method (so the
     * target's triggers do not fire a second time); under apply.method binlog the method's own row
     * covers the privilege.
     */
    static Optional<CheckResult> triggerTables(ApplyMethod method, ServerVersion target, Grants grants,
                                               String grantsProblem, String user, List<String> triggerTables) {
        if (method == ApplyMethod.BINLOG || target == null) {
            return Optional.empty();
        }
        if (triggerTables.isEmpty()) {
            return Optional.of(CheckResult.pass(TRIGGERS, "no replicated table has triggers on the target"));
        }
        String tables = triggerTables.size() + " tables with triggers (" + String.join(", ",
            triggerTables.subList(0, Math.min(5, triggerTables.size()))) + (triggerTables.size() > 5 ? ", …" : "")
            + ") are applied with BINLOG statements so their triggers do not fire twice";
        return Optional.of(binlogPrivilege(TRIGGERS, target, grants, grantsProblem, user, tables, true));
    }

    /**
     * MariaDB target: system-versioned tables and tables with a long unique key (a hidden column each)
     * go as BINLOG statements under every method (SQL would set the history's times itself, and cannot
     * name the hidden columns the source's rows carry).
     */
    static Optional<CheckResult> hiddenColumnTables(ApplyMethod method, ServerVersion target, Grants grants,
                                                    String grantsProblem, String user, List<String> tables) {
        if (method == ApplyMethod.BINLOG || target == null || !target.mariadb()) {
            return Optional.empty();
        }
        if (tables.isEmpty()) {
            return Optional.of(CheckResult.pass(HIDDEN, "no replicated table is system-versioned or has a long UNIQUE key"));
        }
        String what = tables.size() + " system-versioned tables or tables with a long UNIQUE key (" + String.join(", ",
            tables.subList(0, Math.min(5, tables.size()))) + (tables.size() > 5 ? ", …" : "") + ") are applied with"
            + " BINLOG statements, which keep the source's history times and hidden hash columns";
        return Optional.of(binlogPrivilege(HIDDEN, target, grants, grantsProblem, user, what, true));
    }

    /**
     * MySQL target: rows whose JSON holds an opaque value (DECIMAL, DATE, DATETIME …) go as BINLOG
     * statements, which alone keep the value's JSON type.
     */
    static Optional<CheckResult> jsonColumns(ApplyMethod method, ServerVersion target, Grants grants,
                                             String grantsProblem, String user, long jsonColumns) {
        if (method == ApplyMethod.BINLOG || target == null || target.mariadb()) {
            return Optional.empty();
        }
        if (jsonColumns == 0) {
            return Optional.of(CheckResult.pass(JSON, "no JSON columns in the replicated schemas"));
        }
        String what = jsonColumns + " JSON columns: a document holding a DECIMAL or date/time value is applied with a"
            + " BINLOG statement, which alone keeps its JSON type";
        CheckResult r = binlogPrivilege(JSON, target, grants, grantsProblem, user, what, false);
        return Optional.of(r);
    }

    private static CheckResult binlogPrivilege(String name, ServerVersion target, Grants grants, String grantsProblem,
                                               String user, String what, boolean fail) {
        List<String> accepted = MethodChoice.binlogPrivileges(target);
        if (grants == null) {
            return CheckResult.warn(name, what + "; SHOW GRANTS failed (" + grantsProblem + "): "
                + accepted.get(0) + " not checked");
        }
        for (String p : accepted) {
            if (grants.global(p)) {
                return CheckResult.pass(name, what + "; user '" + user + "' may (" + p + ")");
            }
        }
        String detail = what + "; user '" + user + "' lacks " + String.join(" or ", accepted) + ", so the first such"
            + " change stops the applier: " + TargetPrivileges.binlogGrant(target.mariadb(), user);
        if (grants.hasRoles()) {
            return CheckResult.warn(name, detail + " (a role may grant it: not checked)");
        }
        return fail ? CheckResult.fail(name, detail) : CheckResult.warn(name, detail);
    }

    /** MySQL target: the session context set before each replicated statement needs SESSION_VARIABLES_ADMIN. */
    static Optional<CheckResult> sessionVariables(ServerVersion target, Grants grants, String grantsProblem,
                                                  String user) {
        if (target == null || target.mariadb() || !target.atLeast(8, 0)) {
            return Optional.empty();
        }
        String what = "DDL and statement-format changes run after setting the source session's"
            + " explicit_defaults_for_timestamp, collation_database …";
        if (grants == null) {
            return Optional.of(CheckResult.warn(SESSION, what + "; SHOW GRANTS failed (" + grantsProblem
                + "): SESSION_VARIABLES_ADMIN not checked"));
        }
        for (String p : TargetPrivileges.MYSQL_SESSION) {
            if (grants.global(p)) {
                return Optional.of(CheckResult.pass(SESSION, what + "; user '" + user + "' may (" + p + ")"));
            }
        }
        String detail = what + ", which MySQL restricts; user '" + user + "' lacks SESSION_VARIABLES_ADMIN, so the"
            + " first replicated DDL stops the applier: " + TargetPrivileges.sessionGrant(user);
        return Optional.of(CheckResult.warn(SESSION, detail + (grants.hasRoles() ? " (a role may grant it: not checked)"
            : "")));
    }

    /**
     * A source with require_secure_transport=ON refuses a binlog connection without TLS, although
     * check's own JDBC connection (which may negotiate TLS) succeeds.
     *
     * @param binlogTls the binlog connection is configured to use TLS
     */
    static Optional<CheckResult> secureTransport(String requireSecureTransport, boolean binlogTls) {
        if (requireSecureTransport == null) {
            return Optional.empty();
        }
        if (!on(requireSecureTransport)) {
            return Optional.of(CheckResult.pass(SECURE_TRANSPORT, "OFF: the binlog connection may be unencrypted"));
        }
        if (binlogTls) {
            return Optional.of(CheckResult.pass(SECURE_TRANSPORT, "ON, and the binlog connection uses TLS"));
        }
        return Optional.of(CheckResult.fail(SECURE_TRANSPORT, "ON: the source refuses the unencrypted binlog"
            + " connection (\"Connections using insecure transport are prohibited\") although this check's own"
            + " connection succeeded; set source.tls.mode (preferred or stricter, see docs/tls.md), or SET PERSIST"
            + " require_secure_transport=OFF on the source"));
    }

    /** MySQL 8.0.20+ compressed transactions: read in parts like any large transaction. */
    static Optional<CheckResult> compression(boolean sourceMariadb, String compression) {
        if (sourceMariadb || compression == null) {
            return Optional.empty();
        }
        if (!on(compression)) {
            return Optional.of(CheckResult.pass(COMPRESSION, "OFF"));
        }
        return Optional.of(CheckResult.pass(COMPRESSION, "ON: compressed transactions (zstd) are decompressed as a"
            + " stream and travel in parts like any large transaction"));
    }

    /**
     * MySQL 8.0.30+ generated invisible primary keys: the source logs {@code my_row_id} in every row;
     * the target must show it in information_schema or the applier sees one column fewer.
     */
    static Optional<CheckResult> invisiblePrimaryKeys(ServerVersion target, String showGipk) {
        if (target == null || target.mariadb() || showGipk == null) {
            return Optional.empty();
        }
        if (on(showGipk)) {
            return Optional.of(CheckResult.pass(GIPK, "show_gipk_in_create_table_and_information_schema=ON:"
                + " generated invisible primary keys (my_row_id) are visible to the applier"));
        }
        return Optional.of(CheckResult.warn(GIPK, "show_gipk_in_create_table_and_information_schema=OFF hides"
            + " my_row_id from information_schema, so a table with a generated invisible primary key looks one"
            + " column short of the source's rows: SET PERSIST show_gipk_in_create_table_and_information_schema=ON"
            + " on the target"));
    }

    static String lower(String s) {
        return s == null ? null : s.toLowerCase(Locale.ROOT);
    }
}
