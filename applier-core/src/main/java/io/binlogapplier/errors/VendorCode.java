package io.binlogapplier.errors;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Every MySQL/MariaDB error number binlog-applier reacts to, named once (the names are the
 * servers' own, from {@code mysqld_error.h} and {@code errmsg.h}; both servers share these numbers
 * unless marked MariaDB). What to do about each is {@link ErrorClassifier}'s business; code that
 * must single out one error (a fallback statement, an "already applied" replay) tests it with
 * {@link #is(SQLException)} instead of a bare number.
 *
 * <p>{@link #reason()} is a short, stable snake_case tag for logs and metrics labels: renaming
 * one breaks dashboards, so add rather than rename.
 */
public enum VendorCode {
    /** CREATE DATABASE: the database exists. */
    ER_DB_CREATE_EXISTS(1007, "database_exists"),
    /** DROP DATABASE: the database does not exist. */
    ER_DB_DROP_EXISTS(1008, "database_missing"),
    /** ER_KEY_NOT_FOUND: a row event's row to update or delete is not there. */
    ER_KEY_NOT_FOUND(1032, "key_not_found"),
    /** The user may not use that database. */
    ER_DBACCESS_DENIED_ERROR(1044, "database_access_denied"),
    /** Wrong user or password (login refused). */
    ER_ACCESS_DENIED_ERROR(1045, "access_denied"),
    /** A NOT NULL column got NULL. */
    ER_BAD_NULL_ERROR(1048, "null_rejected"),
    /** Unknown database. */
    ER_BAD_DB_ERROR(1049, "unknown_database"),
    /** CREATE TABLE: the table exists. */
    ER_TABLE_EXISTS_ERROR(1050, "table_exists"),
    /** DROP TABLE: unknown table. */
    ER_BAD_TABLE_ERROR(1051, "unknown_table"),
    /** Too many connections: the server's max_connections are in use (passes as others disconnect). */
    ER_CON_COUNT_ERROR(1040, "too_many_connections"),
    /** The server is shutting down. */
    ER_SERVER_SHUTDOWN(1053, "server_shutdown"),
    /** Unknown column. */
    ER_BAD_FIELD_ERROR(1054, "unknown_column"),
    /** ALTER TABLE ADD: the column exists. */
    ER_DUP_FIELDNAME(1060, "duplicate_column"),
    /** ALTER TABLE ADD: the index name exists. */
    ER_DUP_KEYNAME(1061, "duplicate_key_name"),
    /** A unique or primary key already holds the value. */
    ER_DUP_ENTRY(1062, "duplicate_key"),
    /** Syntax error: also how an older server says it does not know a statement. */
    ER_PARSE_ERROR(1064, "parse_error"),
    /** ALTER TABLE DROP: no such column or index. */
    ER_CANT_DROP_FIELD_OR_KEY(1091, "cannot_drop_missing"),
    /** "Unknown error": how MariaDB reports a row event a BINLOG statement could not apply. */
    ER_UNKNOWN_ERROR(1105, "unknown_error"),
    /** REVOKE: the user holds no such privilege on that database (or globally). */
    ER_NONEXISTING_GRANT(1141, "grant_missing"),
    /** The user lacks a table privilege. */
    ER_TABLEACCESS_DENIED_ERROR(1142, "table_access_denied"),
    /** The user lacks a column privilege. */
    ER_COLUMNACCESS_DENIED_ERROR(1143, "column_access_denied"),
    /** The table does not exist. */
    ER_NO_SUCH_TABLE(1146, "no_such_table"),
    /** REVOKE: the user holds no such privilege on that table. */
    ER_NONEXISTING_TABLE_GRANT(1147, "table_grant_missing"),
    /** A packet exceeded max_allowed_packet (the server then drops the connection). */
    ER_NET_PACKET_TOO_LARGE(1153, "packet_too_large"),
    /** The server has no such system variable (an older or other server). */
    ER_UNKNOWN_SYSTEM_VARIABLE(1193, "unknown_variable"),
    /** innodb_lock_wait_timeout ran out. */
    ER_LOCK_WAIT_TIMEOUT(1205, "lock_wait_timeout"),
    /** Chosen as a deadlock victim; the transaction was rolled back. */
    ER_LOCK_DEADLOCK(1213, "deadlock"),
    /** The user lacks a global privilege (SUPER, REPLICATION CLIENT, BINLOG REPLAY, ...). */
    ER_SPECIFIC_ACCESS_DENIED_ERROR(1227, "privilege_denied"),
    /** The source cannot send the requested binlog (purged position, or our server_id in use). */
    ER_MASTER_FATAL_ERROR_READING_BINLOG(1236, "binlog_read_failed"),
    /** A numeric value does not fit the column. */
    ER_WARN_DATA_OUT_OF_RANGE(1264, "out_of_range"),
    /** A value was truncated for the column. */
    WARN_DATA_TRUNCATED(1265, "data_truncated"),
    /** An incorrect value (e.g. a date) for its type. */
    ER_TRUNCATED_WRONG_VALUE(1292, "incorrect_value"),
    /** CREATE PROCEDURE/FUNCTION: the routine exists. */
    ER_SP_ALREADY_EXISTS(1304, "routine_exists"),
    /** DROP PROCEDURE/FUNCTION: the routine does not exist. */
    ER_SP_DOES_NOT_EXIST(1305, "routine_missing"),
    /** The statement was interrupted (KILL QUERY, max_statement_time). */
    ER_QUERY_INTERRUPTED(1317, "interrupted"),
    /** CREATE TRIGGER: the trigger exists. */
    ER_TRG_ALREADY_EXISTS(1359, "trigger_exists"),
    /** DROP TRIGGER: the trigger does not exist. */
    ER_TRG_DOES_NOT_EXIST(1360, "trigger_missing"),
    /** An incorrect value for a column (e.g. a string for an integer, a bad character). */
    ER_TRUNCATED_WRONG_VALUE_FOR_FIELD(1366, "incorrect_field_value"),
    /** CREATE/DROP USER failed (the user exists, or does not). */
    ER_CANNOT_USER(1396, "user_operation_failed"),
    /** A string is too long for the column. */
    ER_DATA_TOO_LONG(1406, "data_too_long"),
    /** A foreign key still references the row to delete or change. */
    ER_ROW_IS_REFERENCED_2(1451, "row_is_referenced"),
    /** A foreign key's parent row is missing. */
    ER_NO_REFERENCED_ROW_2(1452, "no_referenced_row"),
    /** A replicated event is corrupt (MariaDB reports it as a warning of a failed BINLOG statement). */
    ER_SLAVE_CORRUPT_EVENT(1610, "corrupt_event"),
    /** A replicated value cannot be converted to the target column's type (a BINLOG statement's warning). */
    ER_SLAVE_CONVERSION_FAILED(1677, "conversion_failed"),
    /** A foreign key name is taken. */
    ER_FK_DUP_NAME(1826, "duplicate_foreign_key"),
    /** MariaDB: the connection was killed. */
    ER_CONNECTION_KILLED(1927, "connection_killed"),
    /**
     * "The MariaDB server is running with the --read-only option so it cannot execute this statement"
     * (also other options: --skip-grant-tables, --secure-file-priv; only read-only is transient).
     */
    ER_OPTION_PREVENTS_STATEMENT(1290, "read_only"),
    /** MariaDB: "Running in read-only mode" (innodb_read_only, a server starting or being repaired). */
    ER_READ_ONLY_MODE(1836, "read_only_mode"),
    /** MariaDB: a constraint name is taken. */
    ER_DUP_CONSTRAINT_NAME(4093, "duplicate_constraint"),
    /** Client side: the server has gone away (the connection was closed before the request). */
    CR_SERVER_GONE_ERROR(2006, "server_gone"),
    /** Client side: the connection was lost during the query. */
    CR_SERVER_LOST(2013, "connection_lost");

    private static final Map<Integer, VendorCode> BY_CODE = new HashMap<>();

    static {
        for (VendorCode v : values()) {
            if (BY_CODE.put(v.code, v) != null) {
                throw new ExceptionInInitializerError("vendor code " + v.code + " named twice");
            }
        }
    }

    private final int code;
    private final String reason;

    VendorCode(int code, String reason) {
        this.code = code;
        this.reason = reason;
    }

    /** The server's error number. */
    public int code() {
        return code;
    }

    /** A stable snake_case tag for this error, for logs and metrics labels. */
    public String reason() {
        return reason;
    }

    /** True when {@code e} carries this error number. */
    public boolean is(SQLException e) {
        return e.getErrorCode() == code;
    }

    /** The constant for an error number; null for one binlog-applier does not react to (and for 0). */
    public static VendorCode of(int code) {
        return BY_CODE.get(code);
    }
}
