package io.binlogapplier.privilege;

import java.util.List;

/**
 * The target privileges beyond table privileges that applying needs, per vendor, and the advice a
 * message gives when one is missing. Pure.
 *
 * <ul>
 *   <li>BINLOG statements (apply.method binlog; under every method the rows of tables with triggers
 *       on the target, and on MySQL rows whose JSON holds opaque values): MariaDB BINLOG REPLAY
 *       (10.5.2+; SUPER before and again accepted by 10.11), MySQL 8 BINLOG_ADMIN, or
 *       REPLICATION_APPLIER with the table privileges, or the deprecated SUPER (reference manual,
 *       "BINLOG Statement").</li>
 *   <li>The source session's context set before each statement (DDL and statement-format DML):
 *       MySQL 8 restricts setting the session value of {@code explicit_defaults_for_timestamp},
 *       {@code collation_database}, {@code default_collation_for_utf8mb4} … to holders of
 *       SESSION_VARIABLES_ADMIN, SYSTEM_VARIABLES_ADMIN or SUPER ("System Variable Privileges");
 *       MariaDB restricts none of the variables the applier sets.</li>
 * </ul>
 */
public final class TargetPrivileges {
    /** MySQL 8: any of these lets a user run BINLOG statements. */
    public static final List<String> MYSQL_BINLOG = List.of("BINLOG_ADMIN", "REPLICATION_APPLIER", "SUPER");
    /** MariaDB: any of these (SUPER only from 10.11 on, see MethodChoice.binlogPrivileges). */
    public static final List<String> MARIADB_BINLOG = List.of("BINLOG REPLAY", "SUPER");
    /** MySQL 8: any of these lets a user set restricted session variables. */
    public static final List<String> MYSQL_SESSION = List.of("SESSION_VARIABLES_ADMIN", "SYSTEM_VARIABLES_ADMIN",
        "SUPER");

    private TargetPrivileges() {
    }

    /** The GRANT that lets {@code user} run BINLOG statements on a target of this vendor. */
    public static String binlogGrant(boolean mariadb, String user) {
        return mariadb
            ? "GRANT BINLOG REPLAY ON *.* TO '" + user + "' (MariaDB 10.5.2+; SUPER before)"
            : "GRANT BINLOG_ADMIN ON *.* TO '" + user + "' (or REPLICATION_APPLIER; SUPER is deprecated)";
    }

    /** The GRANT that lets {@code user} set the source session's context on a MySQL target. */
    public static String sessionGrant(String user) {
        return "GRANT SESSION_VARIABLES_ADMIN ON *.* TO '" + user + "'";
    }
}
