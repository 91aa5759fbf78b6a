package io.binlogapplier.apply;

import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.privilege.Grants;

import java.util.List;

/**
 * The apply method a run uses, and why: {@code apply.method} as configured, or what {@code auto}
 * resolved to. {@link #decide} is the one place that resolves {@code auto}; {@code run} (at start) and
 * {@code check} (as a row) both call it with the facts they read, so they cannot disagree. Pure and
 * immutable.
 *
 * <p>{@code auto} resolves to {@link ApplyMethod#BINLOG} only when all of these hold, else to
 * {@link ApplyMethod#SQL}:
 * <ul>
 *   <li>the target is the source's kind: a BINLOG statement carries the source's own row events, which
 *       only a server of the same kind decodes (MariaDB and MySQL differ in event types and headers);</li>
 *   <li>the target is not older in major.minor than the source: a server reads the row events of its
 *       own and older releases, not necessarily of newer ones (a newer series may add event types or
 *       flags). Patch releases of one series write the same events, so they do not count;</li>
 *   <li>{@code SHOW GRANTS} on the target gives the user, on {@code *.*}, a privilege that lets it run
 *       BINLOG statements ({@link #binlogPrivileges}). A privilege that may come from a role is not
 *       counted: roles are not expanded by {@code SHOW GRANTS}, and guessing wrong would stop the run at
 *       its first row event;</li>
 *   <li>the target's {@code slave_exec_mode} (MySQL 8.0.26 on: {@code replica_exec_mode}) is not
 *       {@code IDEMPOTENT}: a BINLOG statement runs the target's replication code, which in that mode
 *       overwrites a row whose key is already there and skips a row change whose row is missing, without
 *       an error. Tried on MariaDB 10.11: the duplicate key gives not even a warning.</li>
 * </ul>
 * An explicit {@code apply.method: binlog} on such a target is refused at start ({@link #idempotentRefusal}).
 *
 * @param method the method the run uses: {@link ApplyMethod#SQL} or {@link ApplyMethod#BINLOG}
 * @param auto true when it came from {@code apply.method: auto}
 * @param because why this method (for {@code auto}), one clause
 * @param other what would give the other method (for {@code auto}), one clause
 * @param changeWouldHelp {@code auto} chose sql, and a change on the target (a GRANT, reading the grants, a
 *     setting) would give the faster method
 */
public record MethodChoice(ApplyMethod method, boolean auto, String because, String other, boolean changeWouldHelp) {

    /**
     * What {@code auto} decides on, read from the servers at start.
     *
     * @param source the source's version; null when unreadable
     * @param target the target's version; null when unreadable
     * @param grants the target user's {@code SHOW GRANTS}; null when it failed
     * @param grantsProblem why {@code SHOW GRANTS} failed (when {@code grants} is null)
     * @param user the target user's name as configured
     * @param idempotent the target's exec mode setting when it is IDEMPOTENT ({@code slave_exec_mode=IDEMPOTENT}),
     *     null when it is STRICT or unknown
     */
    public record Facts(ServerVersion source, ServerVersion target, Grants grants, String grantsProblem, String user,
                        String idempotent) {
    }

    public MethodChoice {
        if (method == ApplyMethod.AUTO) {
            throw new IllegalArgumentException("a chosen method is sql or binlog");
        }
    }

    /** {@code apply.method: sql} or {@code binlog}, used as configured. */
    public static MethodChoice configured(ApplyMethod method) {
        return new MethodChoice(method, false, "apply.method is " + name(method), "", false);
    }

    /** Resolves {@code configured}: itself unless it is {@code auto}; then by the facts (see the class comment). */
    public static MethodChoice decide(ApplyMethod configured, Facts f) {
        if (configured != ApplyMethod.AUTO) {
            return configured(configured);
        }
        if (f.source() == null || f.target() == null) {
            String which = f.source() == null ? "source" : "target";
            return sql("the " + which + "'s version could not be read", "set apply.method: binlog if the target is of"
                + " the source's kind and not older", false);
        }
        ServerVersion s = f.source();
        ServerVersion t = f.target();
        if (s.mariadb() != t.mariadb()) {
            return sql("the target is " + t + " and the source " + s + ": BINLOG statements need a target of the"
                + " source's kind", "the binlog method needs a " + s.kind() + " target", false);
        }
        if (t.olderThan(s)) {
            return sql("the target (" + t + ") is older than the source (" + s + ") and may not read its row events",
                "a target at " + s + " or later could use the faster binlog method", false);
        }
        if (f.idempotent() != null) {
            return sql("the target's " + f.idempotent() + " makes a BINLOG statement overwrite a duplicate key and skip"
                + " a missing row without an error", strict(f.idempotent()) + " to use the faster binlog method", true);
        }
        List<String> accepted = binlogPrivileges(t);
        String privilege = accepted.get(0);
        String grant = "GRANT " + privilege + " ON *.* TO '" + f.user() + "'";
        if (f.grants() == null) {
            return sql("SHOW GRANTS failed on the target (" + f.grantsProblem() + "), so whether user '" + f.user()
                + "' may run BINLOG statements is unknown", "set apply.method: binlog if it has " + privilege, true);
        }
        for (String held : accepted) {
            if (f.grants().global(held)) {
                return new MethodChoice(ApplyMethod.BINLOG, true, "the target (" + t + ") is the source's kind and"
                    + " not older (source " + s + "), and user '" + f.user() + "' may run BINLOG statements (" + held
                    + ")", "set apply.method: sql to use the sql method instead", false);
            }
        }
        if (f.grants().hasRoles()) {
            return sql("user '" + f.user() + "' has no " + privilege + " in SHOW GRANTS (privileges from roles are"
                + " not checked)", grant + " (directly, not through a role), or set apply.method: binlog, to use the"
                + " faster binlog method", true);
        }
        return sql("the target user '" + f.user() + "' lacks " + privilege, grant + " to use the faster binlog method",
            true);
    }

    /**
     * The global privileges that let a user run BINLOG statements on {@code target}, the one to grant
     * first. MariaDB 10.5.2 split BINLOG REPLAY out of SUPER ("This statement requires the SUPER
     * privilege (<= MariaDB 10.5.1) or the BINLOG REPLAY privilege (>= MariaDB 10.5.2)", MariaDB KB
     * "BINLOG"; 10.5.0 and 10.5.1 were alphas); later servers accept SUPER again (their privilege.h:
     * {@code PRIV_STMT_BINLOG= BINLOG_REPLAY_ACL | SUPER_ACL}), and ApplyMethodAutoIT shows a SUPER-only
     * user running BINLOG statements on 10.11. Where in 10.5 to 10.10 SUPER came back is not pinned
     * down here, so there only BINLOG REPLAY counts: a wrong "no" costs speed (sql), a wrong "yes" would
     * stop the run. MySQL 8: "BINLOG_ADMIN (or the deprecated SUPER), or REPLICATION_APPLIER plus the
     * appropriate privileges to execute each log event" (reference manual, BINLOG Statement); the
     * applier needs those table privileges anyway. MySQL 5.7 has no dynamic privileges: SUPER.
     */
    public static List<String> binlogPrivileges(ServerVersion target) {
        if (target.mariadb()) {
            return target.atLeast(10, 11) ? List.of("BINLOG REPLAY", "SUPER")
                : target.atLeast(10, 5) ? List.of("BINLOG REPLAY") : List.of("SUPER");
        }
        return target.atLeast(8, 0) ? List.of("BINLOG_ADMIN", "REPLICATION_APPLIER", "SUPER") : List.of("SUPER");
    }

    private static MethodChoice sql(String because, String other, boolean changeWouldHelp) {
        return new MethodChoice(ApplyMethod.SQL, true, because, other, changeWouldHelp);
    }

    /**
     * Why {@code apply.method: binlog} cannot run on a target whose exec mode is IDEMPOTENT, one line with
     * the fix; null when {@code idempotent} is null (the mode is STRICT).
     */
    public static String idempotentRefusal(String idempotent) {
        if (idempotent == null) {
            return null;
        }
        return "apply.method binlog: the target's " + idempotent + " makes a BINLOG statement overwrite a duplicate key"
            + " and skip a missing row without an error, so differences would go unnoticed: " + strict(idempotent)
            + ", or set apply.method: sql";
    }

    /**
     * What the sql method's BINLOG statements (the rows of tables with triggers on the target) risk on a
     * target whose exec mode is IDEMPOTENT: a line for the log and {@code check}; null when it is STRICT.
     */
    public static String idempotentCaveat(String idempotent) {
        if (idempotent == null) {
            return null;
        }
        return "the target's " + idempotent + ": the BINLOG statements that carry the rows of tables with triggers on"
            + " the target would overwrite a duplicate key without an error; " + strict(idempotent);
    }

    /** "SET GLOBAL slave_exec_mode = 'STRICT'" for the variable named in {@code setting} ("name=VALUE"). */
    private static String strict(String setting) {
        return "SET GLOBAL " + setting.substring(0, setting.indexOf('=')) + " = 'STRICT'";
    }

    /** "auto: using sql because …; GRANT …" or, when configured, "sql (apply.method is sql)". */
    public String summary() {
        return auto ? "auto: using " + name(method) + " because " + because + "; " + other
            : name(method) + " (" + because + ")";
    }

    /** The INFO line a run logs at start when {@code auto} decided. */
    public String logLine() {
        return "apply.method " + summary();
    }

    /** How {@code apply.method} names the chosen method: sql, binlog. */
    public String methodName() {
        return name(method);
    }

    private static String name(ApplyMethod m) {
        return m.name().toLowerCase(java.util.Locale.ROOT);
    }
}
