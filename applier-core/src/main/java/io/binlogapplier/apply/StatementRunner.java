package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.QueryStatus;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import io.binlogapplier.errors.VendorCode;
import io.binlogapplier.transaction.Change;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.CharacterCodingException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a source statement (DDL, or statement-format DML) on the target in the source session's
 * context: default database, timestamp, sql_mode, collations, time zone, foreign/unique checks,
 * auto-increment settings, INSERT_ID/LAST_INSERT_ID and RAND seeds. Owned by one worker.
 */
final class StatementRunner {
    private static final Logger log = LoggerFactory.getLogger(StatementRunner.class);

    /**
     * Errors that mean a DDL already took effect: when replaying the one statement that a crash may
     * have interrupted, these are expected and skipped (as MariaDB's slave_ddl_exec_mode=IDEMPOTENT).
     */
    static final Set<VendorCode> ALREADY_APPLIED = Collections.unmodifiableSet(EnumSet.of(
        VendorCode.ER_DB_CREATE_EXISTS,
        VendorCode.ER_DB_DROP_EXISTS,
        VendorCode.ER_TABLE_EXISTS_ERROR,
        VendorCode.ER_BAD_TABLE_ERROR,
        VendorCode.ER_DUP_FIELDNAME,
        VendorCode.ER_DUP_KEYNAME,
        VendorCode.ER_CANT_DROP_FIELD_OR_KEY,
        VendorCode.ER_NO_SUCH_TABLE, // a RENAME or ALTER … RENAME already done
        VendorCode.ER_SP_ALREADY_EXISTS,
        VendorCode.ER_SP_DOES_NOT_EXIST,
        VendorCode.ER_TRG_ALREADY_EXISTS,
        VendorCode.ER_TRG_DOES_NOT_EXIST,
        VendorCode.ER_CANNOT_USER,
        VendorCode.ER_NONEXISTING_GRANT, // a REVOKE already done
        VendorCode.ER_NONEXISTING_TABLE_GRANT,
        VendorCode.ER_FK_DUP_NAME,
        VendorCode.ER_DUP_CONSTRAINT_NAME));

    private final Connection connection;
    private final CharsetResolver charsets;
    private final String sessionInit;
    private String database;

    StatementRunner(Connection connection, CharsetResolver charsets, String sessionInit) {
        this.connection = connection;
        this.charsets = charsets;
        this.sessionInit = sessionInit;
    }

    /**
     * @param replay the statement may already have run before a crash: "already applied" errors are skipped
     * @return true when the statement ran, false when a replay found it already applied
     */
    /**
     * Puts the session back after a statement. When the statement itself failed, a failure here (the
     * connection is gone, say) must not replace its error, which says what happened.
     */
    private void restoreSession(Statement st, Change.Statement s, Throwable failed) throws SQLException {
        try {
            st.execute(s.implicitCommit() ? sessionInit + ", autocommit=0" : sessionInit);
        } catch (SQLException e) {
            if (failed == null) {
                throw e;
            }
            failed.addSuppressed(e);
        }
    }

    boolean run(Change.Statement s, String where, boolean replay) throws SQLException {
        String sql;
        try {
            sql = charsets.decode(s.sql(), s.status().clientCharset());
        } catch (CharacterCodingException e) {
            throw new ApplierException(ExitCode.SOURCE_UNSUPPORTED, "cannot decode the statement at " + where + " ("
                + e.getMessage() + "): apply it by hand on the target, then restart from the next position");
        }
        try (Statement st = connection.createStatement()) {
            try {
                st.execute(contextSql(s));
            } catch (SQLException e) {
                if (VendorCode.ER_SPECIFIC_ACCESS_DENIED_ERROR.is(e)) {
                    throw contextDenied(e, where);
                }
                throw e;
            }
            useDatabase(st, s.database());
            Throwable failed = null;
            try {
                st.execute(sql);
                return true;
            } catch (SQLException e) {
                failed = e;
                if (replay && ALREADY_APPLIED.contains(VendorCode.of(e.getErrorCode()))) {
                    log.warn("statement at {} was already applied before a restart ({}); continuing", where,
                        Messages.firstLine(e.getMessage()));
                    return false;
                }
                if (ErrorClassifier.classify(e, Side.TARGET).action() != Classification.Action.FATAL) {
                    throw e;
                }
                throw Messages.targetFailure(e, "statement `" + abbreviate(sql) + "`", where);
            } catch (RuntimeException e) {
                failed = e;
                throw e;
            } finally {
                if (s.implicitCommit()) {
                    database = null; // a DROP DATABASE may have removed the default database
                }
                restoreSession(st, s, failed);
            }
        }
    }

    /**
     * MySQL 8 lets only SESSION_VARIABLES_ADMIN (or SYSTEM_VARIABLES_ADMIN, SUPER) set the session
     * value of explicit_defaults_for_timestamp, collation_database and the like: "Access denied; you
     * need (at least one of) the SUPER, SYSTEM_VARIABLES_ADMIN or SESSION_VARIABLES_ADMIN privilege(s)".
     */
    static ApplierException contextDenied(SQLException e, String where) {
        return new ApplierException(ExitCode.TARGET_PRIVILEGE, "the target user may not set the source session's"
            + " variables before the statement of " + where + " (" + Messages.firstLine(e) + "): "
            + io.binlogapplier.privilege.TargetPrivileges.sessionGrant("<target user>") + " (MySQL 8), then restart", e);
    }

    /** The default database of a statement that has none here: nothing unqualified resolves in it. */
    private static final String NO_DATABASE = "information_schema";

    /**
     * Makes the connection's default database the statement's. Without one (the source ran it with none,
     * or it does not exist here: a schema the filter leaves out, or one since dropped) the connection moves
     * to {@code information_schema} instead of staying in the last statement's database, where an
     * unqualified name would silently find another schema's table ({@code USE app; CREATE TABLE shop.t2
     * LIKE tpl} made {@code shop.t2} like the previous database's {@code tpl}). There every unqualified
     * name fails, as on a native replica whose default database does not exist.
     */
    private void useDatabase(Statement st, String db) throws SQLException {
        String want = db == null || db.isEmpty() ? NO_DATABASE : db;
        if (want.equals(database)) {
            return;
        }
        try {
            st.execute("USE " + Sql.quote(want));
            database = want;
        } catch (SQLException e) {
            if (!VendorCode.ER_BAD_DB_ERROR.is(e) || want.equals(NO_DATABASE)) {
                throw e;
            }
            st.execute("USE " + NO_DATABASE);
            database = NO_DATABASE;
        }
    }

    /** One SET statement that recreates the source session's context for this statement. */
    static String contextSql(Change.Statement s) {
        QueryStatus q = s.status();
        List<String> sets = new ArrayList<>();
        String ts = Long.toString(s.timestampSeconds());
        if (q.micros() != null && q.micros() > 0) {
            ts += "." + String.format("%06d", q.micros());
        }
        sets.add("timestamp=" + ts);
        if (q.sqlMode() != null) {
            sets.add("sql_mode=" + Long.toUnsignedString(q.sqlMode()));
        }
        if (q.connectionCollation() != null) {
            sets.add("collation_connection=" + q.connectionCollation());
        }
        if (q.serverCollation() != null) {
            sets.add("collation_server=" + q.serverCollation());
        }
        if (q.databaseCollation() != null) {
            sets.add("collation_database=" + q.databaseCollation());
        }
        sets.add(q.timeZone() != null ? "time_zone=" + Sql.literal(q.timeZone()) : "time_zone=@@global.time_zone");
        if (q.flags2() != null) {
            long f = q.flags2();
            sets.add("foreign_key_checks=" + ((f & QueryStatus.OPTION_NO_FOREIGN_KEY_CHECKS) != 0 ? 0 : 1));
            sets.add("unique_checks=" + ((f & QueryStatus.OPTION_RELAXED_UNIQUE_CHECKS) != 0 ? 0 : 1));
        }
        // The source writes them only when not 1 and 1; absent, they are 1 and 1 (as the native replica
        // takes them), not what an earlier statement on this connection set nor the target's global values.
        sets.add("auto_increment_increment=" + (q.autoIncrementIncrement() != null ? q.autoIncrementIncrement() : 1));
        sets.add("auto_increment_offset=" + (q.autoIncrementIncrement() != null ? q.autoIncrementOffset() : 1));
        if (q.explicitDefaultsForTimestamp() != null) {
            sets.add("explicit_defaults_for_timestamp=" + q.explicitDefaultsForTimestamp());
        }
        if (s.insertId() != null) {
            sets.add("insert_id=" + Long.toUnsignedString(s.insertId()));
        }
        if (s.lastInsertId() != null) {
            sets.add("last_insert_id=" + Long.toUnsignedString(s.lastInsertId()));
        }
        if (s.randSeeds() != null) {
            sets.add("rand_seed1=" + Long.toUnsignedString(s.randSeeds()[0]));
            sets.add("rand_seed2=" + Long.toUnsignedString(s.randSeeds()[1]));
        }
        if (s.implicitCommit()) {
            // As the native replica runs DDL: outside a transaction. ALTER TABLE … EXCHANGE PARTITION checks the
            // exchanged table's rows in a transaction of its own, and with autocommit off it waited for a lock
            // its own session held until innodb_lock_wait_timeout (1205). The statement commits what is open
            // anyway; restoreSession turns autocommit off again.
            sets.add("autocommit=1");
        }
        return "SET SESSION " + String.join(", ", sets);
    }

    private static String abbreviate(String sql) {
        String one = sql.replaceAll("\\s+", " ").trim();
        return one.length() > 120 ? one.substring(0, 120) + "…" : one;
    }
}
