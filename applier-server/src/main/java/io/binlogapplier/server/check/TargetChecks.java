package io.binlogapplier.server.check;

import io.binlogapplier.ApplierException;
import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.apply.MethodResolver;
import io.binlogapplier.apply.ServerVersion;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import io.binlogapplier.errors.VendorCode;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.privilege.Grants;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The target's rows of {@code check}. Writes nothing: privileges are read from {@code SHOW GRANTS},
 * and the state table's are probed with statements that match no row, inside a transaction that is
 * rolled back (InnoDB does not binlog a rolled-back transaction).
 */
final class TargetChecks {
    static final Set<String> SYSTEM_SCHEMAS = Set.of("mysql", "information_schema", "performance_schema", "sys");
    private static final List<String> WRITE = List.of("SELECT", "INSERT", "UPDATE", "DELETE");
    private static final List<String> DDL = List.of("CREATE", "ALTER", "DROP", "INDEX");

    private final ApplierConfig config;
    private final Connection target;
    private final Grants grants;
    private final String grantsProblem;
    private final boolean mariadb;
    private final String version;
    /** The target's exec mode as "slave_exec_mode=IDEMPOTENT" when it is IDEMPOTENT, else null. */
    private final String idempotent;
    private StateStore.Saved saved;
    /** The source's server_id recorded with {@link #saved}, or null. */
    private Long savedSourceServerId;
    private String savedUnknown;

    TargetChecks(ApplierConfig config, Connection target) throws SQLException {
        this.config = config;
        this.target = target;
        this.version = query("SELECT VERSION()").get(0);
        this.mariadb = version.toLowerCase(Locale.ROOT).contains("mariadb");
        Grants g = null;
        String problem = null;
        try {
            g = Grants.parse(query("SHOW GRANTS"));
        } catch (SQLException e) {
            problem = Messages.firstLine(e);
        }
        this.grants = g;
        this.grantsProblem = problem;
        this.idempotent = MethodResolver.idempotent(target);
    }

    boolean mariadb() {
        return mariadb;
    }

    String version() {
        return version;
    }

    /** The state row read by {@link #stateTable()}: null when there is none or it could not be read. */
    /** The {@code server_id} of the source the saved file position is of, or null when unknown. */
    Long savedSourceServerId() {
        return savedSourceServerId;
    }

    StateStore.Saved saved() {
        return saved;
    }

    /** Why {@link #saved()} is unknown, or null when it is known (possibly absent). */
    String savedUnknown() {
        return savedUnknown;
    }

    CheckResult stateTable() {
        String name = "target state table";
        String schema = config.target().stateSchema();
        String table = "`" + schema + "`." + StateStore.TABLE;
        try {
            boolean schemaExists = !query("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?",
                schema).isEmpty();
            boolean tableExists = schemaExists && !query("SELECT TABLE_NAME FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", schema, StateStore.TABLE).isEmpty();
            if (!tableExists) {
                if (grants == null) {
                    return CheckResult.warn(name, table + " does not exist yet; SHOW GRANTS failed (" + grantsProblem
                        + "), so whether the first run may create it is unchecked");
                }
                List<String> missing = missing(schema, List.of("CREATE", "SELECT", "INSERT", "UPDATE", "DELETE"));
                if (missing.isEmpty()) {
                    return CheckResult.pass(name, table + " does not exist yet; the first run creates it"
                        + (schemaExists ? "" : " (and schema `" + schema + "`)"));
                }
                return privilegeProblem(name, "to create " + table + ", user '" + config.target().user() + "' lacks "
                    + String.join(", ", missing), schema, "CREATE, SELECT, INSERT, UPDATE, DELETE");
            }
            StateStore store = new StateStore(schema, config.name());
            Optional<StateStore.Saved> row;
            try {
                row = store.load(target);
            } catch (ApplierException e) {
                savedUnknown = e.getMessage();
                return CheckResult.fail(name, e.getMessage());
            }
            probeWrites(table);
            saved = row.orElse(null);
            savedSourceServerId = saved == null ? null : store.sourceServerId(target);
            return CheckResult.pass(name, table + " is readable and writable; " + row.map(s -> "row '" + config.name()
                + "' at " + s.position().coordinates() + ", " + s.appliedTransactions() + " transactions applied")
                .orElse("no row for '" + config.name() + "' yet: the first run starts at source.start"));
        } catch (SQLException e) {
            savedUnknown = Messages.firstLine(e);
            if (SourceChecks.denied(e, Side.TARGET)) {
                return privilegeProblem(name, "user '" + config.target().user() + "' may not use " + table + " ("
                    + Messages.firstLine(e) + ")", schema, "CREATE, SELECT, INSERT, UPDATE, DELETE");
            }
            if (VendorCode.ER_BAD_FIELD_ERROR.is(e)) {
                return CheckResult.fail(name, table + " does not have the columns binlog-applier writes ("
                    + Messages.firstLine(e) + "): was it made by another program? Use another target.state_schema");
            }
            return CheckResult.fail(name, "cannot read " + table + ": " + Messages.firstLine(e));
        }
    }

    /** INSERT, UPDATE and DELETE that match no row, rolled back: proves the privileges, changes nothing. */
    private void probeWrites(String table) throws SQLException {
        boolean auto = target.getAutoCommit();
        target.setAutoCommit(false);
        try (Statement s = target.createStatement()) {
            s.execute("INSERT INTO " + table + " (stream, binlog_file, binlog_offset, gtid_set, resume_by)"
                + " SELECT stream, binlog_file, binlog_offset, gtid_set, resume_by FROM " + table + " WHERE 1 = 0");
            s.execute("UPDATE " + table + " SET binlog_offset = binlog_offset WHERE 1 = 0");
            s.execute("DELETE FROM " + table + " WHERE 1 = 0");
        } finally {
            target.rollback();
            target.setAutoCommit(auto);
        }
    }

    /** SELECT, INSERT, UPDATE, DELETE on every schema the target holds (the replicated ones). */
    List<CheckResult> replicatedSchemas(List<String> sourceSchemas) throws SQLException {
        List<CheckResult> out = new ArrayList<>();
        Set<String> schemas = new TreeSet<>();
        for (String s : query("SHOW DATABASES")) {
            if (!SYSTEM_SCHEMAS.contains(s.toLowerCase(Locale.ROOT)) && !s.equals(config.target().stateSchema())) {
                schemas.add(s);
            }
        }
        String name = "target write privileges";
        if (schemas.isEmpty()) {
            out.add(CheckResult.warn(name, "the target has no schemas besides the system ones: load a copy of the"
                + " source there first (or GRANT the user access to them)"));
        } else {
            out.add(privileges(name, schemas, WRITE, true));
            out.add(privileges("target DDL privileges", schemas, DDL, false));
        }
        if (sourceSchemas != null) {
            // only the schemas the filter applies, under the names filter.rename gives them on the target
            io.binlogapplier.filter.ReplicationFilter filter = new io.binlogapplier.filter.ReplicationFilter(
                config.filter(), config.target().stateSchema());
            List<String> absent = new ArrayList<>();
            for (String s : sourceSchemas) {
                if (SYSTEM_SCHEMAS.contains(s.toLowerCase(Locale.ROOT)) || !filter.replicatesSchema(s)) {
                    continue;
                }
                String there;
                try {
                    there = filter.target(s);
                } catch (io.binlogapplier.ApplierException e) {
                    there = s; // a rename that mixes two schemas: the configuration's own error, at run
                }
                if (!schemas.contains(there) && !there.equals(config.target().stateSchema())) {
                    absent.add(there);
                }
            }
            out.add(absent.isEmpty() ? CheckResult.pass("schemas on both servers", "every schema of the source the"
                + " source user can see" + (config.filter().include().isEmpty() && config.filter().exclude().isEmpty()
                ? "" : " and the filter applies") + " is on the target")
                : CheckResult.warn("schemas on both servers", "the target lacks " + quoteAll(absent) + ": a change to"
                + " them stops the applier; create them on the target from a copy of the source"));
        }
        return out;
    }

    private CheckResult privileges(String name, Set<String> schemas, List<String> needed, boolean fail)
        throws SQLException {
        if (grants == null) {
            return CheckResult.warn(name, "SHOW GRANTS failed (" + grantsProblem + "): not checked");
        }
        List<String> problems = new ArrayList<>();
        List<String> unsure = new ArrayList<>();
        for (String schema : schemas) {
            List<String> missing = missing(schema, needed);
            if (missing.isEmpty()) {
                continue;
            }
            if (grants.perTable(schema) || grants.hasRoles()) {
                unsure.add("`" + schema + "`");
            } else {
                problems.add(String.join(", ", missing) + " on `" + schema + "`");
            }
        }
        if (!problems.isEmpty()) {
            String fix = "GRANT " + String.join(", ", needed) + " ON each schema TO '" + config.target().user() + "'";
            String detail = "user '" + config.target().user() + "' lacks " + String.join("; ", problems) + ": " + fix;
            return fail ? CheckResult.fail(name, detail)
                : CheckResult.warn(name, detail + " (only needed when the source runs DDL)");
        }
        long tables = tablesVisible(schemas);
        String what = String.join(", ", needed) + " on " + schemas.size() + " schemas (" + quoteAll(schemas) + ")";
        if (!unsure.isEmpty()) {
            return CheckResult.warn(name, "granted per table or through a role on " + String.join(", ", unsure)
                + ": not checked; make sure the user has " + String.join(", ", needed) + " on every replicated table");
        }
        return CheckResult.pass(name, what + (fail ? "; " + tables + " tables visible in information_schema" : ""));
    }

    private long tablesVisible(Set<String> schemas) throws SQLException {
        long n = 0;
        for (String s : schemas) {
            n += Long.parseLong(query("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", s).get(0));
        }
        return n;
    }

    /** SUPER (MySQL: SYSTEM_VARIABLES_ADMIN) lets the applier relax the target's flush settings. */
    CheckResult relaxedFlush() {
        String name = "target flush settings";
        String privilege = mariadb ? "SUPER" : "SYSTEM_VARIABLES_ADMIN";
        if (grants != null && grants.global("SUPER", "SYSTEM_VARIABLES_ADMIN")) {
            return CheckResult.pass(name, "may SET GLOBAL innodb_flush_log_at_trx_commit and sync_binlog ("
                + privilege + ")");
        }
        return CheckResult.warn(name, "user '" + config.target().user() + "' lacks " + privilege + (grants != null
            && grants.hasRoles() ? " (or has it through a role, not checked)" : "") + ": the target keeps its own"
            + " flush settings (durable but slower); GRANT " + privilege + " ON *.* for relaxed flushing");
    }

    /**
     * With more than one worker ({@code workers: auto} included): the conflict monitor reads the
     * target's lock waits, which needs PROCESS on MariaDB ({@code information_schema.INNODB_LOCK_WAITS})
     * and SELECT on {@code performance_schema} on MySQL ({@code data_lock_waits}). WARN without it: the
     * applier runs, but a conflict the write sets cannot show then waits for {@code innodb_lock_wait_timeout}.
     */
    Optional<CheckResult> conflictMonitor() {
        if (config.apply().workers() < 2) {
            return Optional.empty();
        }
        String name = "conflict monitor";
        String workers = config.apply().workersAuto() ? "workers: auto" : config.apply().workers() + " workers";
        String privilege = mariadb ? "PROCESS" : "SELECT on performance_schema";
        if (grants == null) {
            return Optional.of(CheckResult.warn(name, "SHOW GRANTS failed (" + grantsProblem + "): " + privilege
                + " not checked"));
        }
        boolean granted = mariadb ? grants.global("PROCESS")
            : grants.global("SELECT") || grants.onSchema("performance_schema", "SELECT");
        if (granted) {
            return Optional.of(CheckResult.pass(name, privilege + " granted: with " + workers + ", lock waits between"
                + " workers are seen at once"));
        }
        return Optional.of(CheckResult.warn(name, "user '" + config.target().user() + "' lacks " + privilege
            + (grants.hasRoles() ? " (or has it through a role, not checked)" : "") + ": with " + workers
            + ", a lock conflict between workers that keys cannot show (a cascade, a trigger) waits for"
            + " innodb_lock_wait_timeout; GRANT " + (mariadb ? "PROCESS ON *.*" : "SELECT ON performance_schema.*")
            + " TO '" + config.target().user() + "'"));
    }

    /**
     * apply.method auto: the method a run would choose, decided by {@link MethodChoice#decide} as at the
     * start of {@code run}. WARN when it is sql and a GRANT would give the faster binlog method.
     *
     * @param sourceVersion the source's VERSION(); null when the source could not be read
     */
    Optional<CheckResult> autoMethod(String sourceVersion) {
        if (config.apply().method() != ApplyMethod.AUTO) {
            return Optional.empty();
        }
        String name = "apply method";
        if (sourceVersion == null) {
            return Optional.of(CheckResult.warn(name, "auto: not decided, the source could not be read; a run uses"
                + " binlog when the target is of the source's kind, not older, and the user may run BINLOG statements"));
        }
        MethodChoice choice = MethodChoice.decide(ApplyMethod.AUTO, new MethodChoice.Facts(
            ServerVersion.parseOrNull(sourceVersion), ServerVersion.parseOrNull(version), grants, grantsProblem,
            config.target().user(), idempotent));
        return Optional.of(choice.changeWouldHelp() ? CheckResult.warn(name, choice.summary())
            : CheckResult.pass(name, choice.summary()));
    }

    /**
     * The target's exec mode, when it is IDEMPOTENT and the method is not an explicit binlog (whose row
     * fails instead): a WARN, as the run logs it, since the sql method still sends BINLOG statements for
     * tables with triggers on the target.
     */
    Optional<CheckResult> execMode() {
        if (idempotent == null || config.apply().method() == ApplyMethod.BINLOG) {
            return Optional.empty();
        }
        return Optional.of(CheckResult.warn("target exec mode", MethodChoice.idempotentCaveat(idempotent)));
    }

    /** apply.method binlog: BINLOG statements need a target of the source's kind and a privilege. */
    Optional<CheckResult> applyMethod(Boolean sourceMariadb) {
        if (config.apply().method() != ApplyMethod.BINLOG) {
            return Optional.empty();
        }
        String name = "target BINLOG statements";
        if (sourceMariadb != null && sourceMariadb != mariadb) {
            return Optional.of(CheckResult.fail(name, "apply.method binlog needs a target of the source's kind (source "
                + kind(sourceMariadb) + ", target " + kind(mariadb) + "): set apply.method sql"));
        }
        if (idempotent != null) {
            return Optional.of(CheckResult.fail(name, MethodChoice.idempotentRefusal(idempotent)));
        }
        String[] accepted = mariadb ? new String[] {"BINLOG REPLAY", "SUPER"}
            : new String[] {"BINLOG_ADMIN", "SUPER", "REPLICATION_APPLIER"};
        if (grants != null && grants.global(accepted)) {
            return Optional.of(CheckResult.pass(name, "apply.method binlog: may run BINLOG statements"));
        }
        String detail = "apply.method binlog: user '" + config.target().user() + "' lacks " + accepted[0]
            + ": GRANT " + accepted[0] + " ON *.* TO the user, or set apply.method sql";
        return Optional.of(grants != null && grants.hasRoles() ? CheckResult.warn(name, detail + " (a role may grant it:"
            + " not checked)") : CheckResult.fail(name, detail));
    }

    /**
     * The rows issue 17 adds for MySQL targets (and the trigger row for both vendors): BINLOG statements
     * for tables with triggers and for typed JSON, the session variables' privilege, GIPK visibility.
     */
    List<CheckResult> mysqlRows() throws SQLException {
        List<CheckResult> out = new ArrayList<>();
        ServerVersion t = ServerVersion.parseOrNull(version);
        String user = config.target().user();
        ApplyMethod method = config.apply().method();
        String notSystem = " NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys', ?)";
        List<String> triggerTables = query("SELECT DISTINCT CONCAT(EVENT_OBJECT_SCHEMA, '.', EVENT_OBJECT_TABLE)"
            + " FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA" + notSystem
            + " ORDER BY 1", config.target().stateSchema());
        MysqlRows.triggerTables(method, t, grants, grantsProblem, user, triggerTables).ifPresent(out::add);
        if (mariadb && method != ApplyMethod.BINLOG) {
            List<String> hidden = query("SELECT CONCAT(TABLE_SCHEMA, '.', TABLE_NAME) FROM information_schema.TABLES"
                + " WHERE TABLE_TYPE = 'SYSTEM VERSIONED' AND TABLE_SCHEMA" + notSystem
                + " UNION SELECT CONCAT(s.TABLE_SCHEMA, '.', s.TABLE_NAME) FROM information_schema.STATISTICS s"
                + " JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = s.TABLE_SCHEMA AND t.TABLE_NAME = s.TABLE_NAME"
                + " WHERE s.NON_UNIQUE = 0 AND s.INDEX_TYPE = 'HASH' AND t.ENGINE NOT IN ('MEMORY', 'HEAP')"
                + " AND s.TABLE_SCHEMA" + notSystem + " ORDER BY 1", config.target().stateSchema(),
                config.target().stateSchema());
            MysqlRows.hiddenColumnTables(method, t, grants, grantsProblem, user, hidden).ifPresent(out::add);
        }
        if (!mariadb) {
            long json = Long.parseLong(query("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE DATA_TYPE = 'json'"
                + " AND TABLE_SCHEMA" + notSystem, config.target().stateSchema()).get(0));
            MysqlRows.jsonColumns(method, t, grants, grantsProblem, user, json).ifPresent(out::add);
            MysqlRows.sessionVariables(t, grants, grantsProblem, user).ifPresent(out::add);
            MysqlRows.invisiblePrimaryKeys(t, variable("show_gipk_in_create_table_and_information_schema"))
                .ifPresent(out::add);
        }
        return out;
    }

    /** A global variable of the target, null when the server has no such variable. */
    private String variable(String name) throws SQLException {
        try {
            return query("SELECT @@GLOBAL." + name).get(0);
        } catch (SQLException e) {
            if (VendorCode.ER_UNKNOWN_SYSTEM_VARIABLE.is(e)) {
                return null;
            }
            throw e;
        }
    }

    private List<String> missing(String schema, List<String> privileges) {
        List<String> missing = new ArrayList<>();
        if (grants == null) {
            return missing;
        }
        for (String p : privileges) {
            if (!grants.onSchema(schema, p)) {
                missing.add(p);
            }
        }
        return missing;
    }

    private CheckResult privilegeProblem(String name, String what, String schema, String privileges) {
        String detail = what + ": GRANT " + privileges + " ON `" + schema + "`.* TO '" + config.target().user() + "'";
        return grants != null && grants.hasRoles() ? CheckResult.warn(name, detail + " (a role may grant it: not checked)")
            : CheckResult.fail(name, detail);
    }

    private static String kind(boolean mariadb) {
        return mariadb ? "MariaDB" : "MySQL";
    }

    private static String quoteAll(java.util.Collection<String> names) {
        List<String> q = new ArrayList<>();
        for (String n : names) {
            q.add(n);
            if (q.size() == 8 && names.size() > 8) {
                q.add("… " + (names.size() - 8) + " more");
                break;
            }
        }
        return String.join(", ", q);
    }

    private List<String> query(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = target.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<String> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
                return out;
            }
        }
    }
}
