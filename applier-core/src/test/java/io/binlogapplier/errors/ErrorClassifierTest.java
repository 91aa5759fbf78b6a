package io.binlogapplier.errors;

import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.BinlogFormatException;
import io.binlogapplier.errors.Classification.Action;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import static io.binlogapplier.ExitCode.INTERNAL;
import static io.binlogapplier.ExitCode.SOURCE_ACCESS_DENIED;
import static io.binlogapplier.ExitCode.SOURCE_POSITION_UNAVAILABLE;
import static io.binlogapplier.ExitCode.SOURCE_PRIVILEGE;
import static io.binlogapplier.ExitCode.SOURCE_SERVER_ID_IN_USE;
import static io.binlogapplier.ExitCode.SOURCE_UNREACHABLE;
import static io.binlogapplier.ExitCode.SOURCE_UNSUPPORTED;
import static io.binlogapplier.ExitCode.TARGET_ACCESS_DENIED;
import static io.binlogapplier.ExitCode.TARGET_DATA_CONFLICT;
import static io.binlogapplier.ExitCode.TARGET_PRIVILEGE;
import static io.binlogapplier.ExitCode.TARGET_SCHEMA_MISMATCH;
import static io.binlogapplier.ExitCode.TARGET_STATEMENT_FAILED;
import static io.binlogapplier.ExitCode.TARGET_UNREACHABLE;
import static io.binlogapplier.ExitCode.TARGET_VALUE_REJECTED;
import static io.binlogapplier.errors.Classification.Action.FATAL;
import static io.binlogapplier.errors.Classification.Action.RECONNECT;
import static io.binlogapplier.errors.Classification.Action.RETRY;
import static io.binlogapplier.errors.Side.SOURCE;
import static io.binlogapplier.errors.Side.TARGET;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One row per vendor code and side, and per I/O failure kind and side. A new {@link VendorCode}
 * without rows for both sides fails {@link #everyVendorCodeHasARowOnEachSide()}.
 */
class ErrorClassifierTest {

    /** One expectation: classifying {@code thrown} on {@code side} gives action, exit code and reason. */
    record Row(Side side, Throwable thrown, Action action, ExitCode exitCode, String reason) {
        @Override
        public String toString() {
            String what = thrown instanceof SQLException e ? "SQL " + e.getErrorCode() + "/" + e.getSQLState()
                : thrown instanceof ServerException e ? thrown.getClass().getSimpleName() + " " + e.getErrorCode()
                : thrown.getClass().getSimpleName();
            return side + " " + what + " -> " + action + " " + exitCode + " " + reason;
        }

        /** The vendor code this row is about, if any. */
        VendorCode code() {
            if (thrown instanceof ApplierException) {
                return null; // its exit code decides, not its cause's number
            }
            Throwable root = ErrorClassifier.rootOf(thrown);
            if (root instanceof SQLException e) {
                return VendorCode.of(e.getErrorCode());
            }
            return root instanceof ServerException e ? VendorCode.of(e.getErrorCode()) : null;
        }
    }

    private static final List<Row> ROWS = new ArrayList<>();

    private static void sql(int code, String state, Action targetAction, ExitCode targetExit, String targetReason,
                            Action sourceAction, ExitCode sourceExit, String sourceReason) {
        ROWS.add(new Row(TARGET, new SQLException("message", state, code), targetAction, targetExit, targetReason));
        ROWS.add(new Row(SOURCE, new SQLException("message", state, code), sourceAction, sourceExit, sourceReason));
    }

    /** A server error the source answers with a reconnect (it names no cause of its own there). */
    private static void sql(int code, String state, Action targetAction, ExitCode targetExit, String targetReason) {
        sql(code, state, targetAction, targetExit, targetReason, RECONNECT, SOURCE_UNREACHABLE, "server_error");
    }

    private static void both(Throwable t, Action action, ExitCode targetExit, ExitCode sourceExit, String reason) {
        ROWS.add(new Row(TARGET, t, action, targetExit, reason));
        ROWS.add(new Row(SOURCE, t, action, sourceExit, reason));
    }

    static {
        // Vendor codes, with the SQLSTATE the servers send with them.
        sql(1007, "HY000", FATAL, TARGET_STATEMENT_FAILED, "database_exists");
        sql(1008, "HY000", FATAL, TARGET_STATEMENT_FAILED, "database_missing");
        sql(1032, "HY000", FATAL, TARGET_DATA_CONFLICT, "key_not_found");
        sql(1044, "42000", FATAL, TARGET_PRIVILEGE, "database_access_denied",
            FATAL, SOURCE_PRIVILEGE, "database_access_denied");
        sql(1045, "28000", FATAL, TARGET_ACCESS_DENIED, "access_denied", FATAL, SOURCE_ACCESS_DENIED, "access_denied");
        sql(1048, "23000", FATAL, TARGET_VALUE_REJECTED, "null_rejected");
        sql(1049, "42000", FATAL, TARGET_SCHEMA_MISMATCH, "unknown_database");
        sql(1050, "42S01", FATAL, TARGET_STATEMENT_FAILED, "table_exists");
        sql(1051, "42S02", FATAL, TARGET_STATEMENT_FAILED, "unknown_table");
        sql(1053, "08S01", RECONNECT, TARGET_UNREACHABLE, "server_shutdown",
            RECONNECT, SOURCE_UNREACHABLE, "server_shutdown");
        sql(1054, "42S22", FATAL, TARGET_SCHEMA_MISMATCH, "unknown_column");
        sql(1060, "42S21", FATAL, TARGET_STATEMENT_FAILED, "duplicate_column");
        sql(1061, "42000", FATAL, TARGET_STATEMENT_FAILED, "duplicate_key_name");
        sql(1062, "23000", FATAL, TARGET_DATA_CONFLICT, "duplicate_key");
        sql(1064, "42000", FATAL, TARGET_STATEMENT_FAILED, "parse_error");
        sql(1091, "42000", FATAL, TARGET_STATEMENT_FAILED, "cannot_drop_missing");
        sql(1105, "HY000", FATAL, TARGET_STATEMENT_FAILED, "unknown_error");
        sql(1141, "42000", FATAL, TARGET_STATEMENT_FAILED, "grant_missing");
        sql(1142, "42000", FATAL, TARGET_PRIVILEGE, "table_access_denied",
            FATAL, SOURCE_PRIVILEGE, "table_access_denied");
        sql(1143, "42000", FATAL, TARGET_PRIVILEGE, "column_access_denied",
            FATAL, SOURCE_PRIVILEGE, "column_access_denied");
        sql(1146, "42S02", FATAL, TARGET_SCHEMA_MISMATCH, "no_such_table");
        sql(1147, "42000", FATAL, TARGET_STATEMENT_FAILED, "table_grant_missing");
        // The server drops the connection with it (08S01), but the value is what is too big.
        sql(1153, "08S01", RECONNECT, TARGET_VALUE_REJECTED, "packet_too_large",
            RECONNECT, SOURCE_UNREACHABLE, "packet_too_large");
        sql(1193, "HY000", FATAL, TARGET_STATEMENT_FAILED, "unknown_variable");
        sql(1205, "HY000", RETRY, TARGET_STATEMENT_FAILED, "lock_wait_timeout");
        sql(1213, "40001", RETRY, TARGET_STATEMENT_FAILED, "deadlock");
        sql(1227, "42000", FATAL, TARGET_PRIVILEGE, "privilege_denied", FATAL, SOURCE_PRIVILEGE, "privilege_denied");
        sql(1236, "HY000", FATAL, TARGET_STATEMENT_FAILED, "binlog_read_failed",
            FATAL, SOURCE_POSITION_UNAVAILABLE, "position_unavailable");
        sql(1264, "22003", FATAL, TARGET_VALUE_REJECTED, "out_of_range");
        sql(1265, "01000", FATAL, TARGET_VALUE_REJECTED, "data_truncated");
        sql(1292, "22007", FATAL, TARGET_VALUE_REJECTED, "incorrect_value");
        sql(1304, "42000", FATAL, TARGET_STATEMENT_FAILED, "routine_exists");
        sql(1305, "42000", FATAL, TARGET_STATEMENT_FAILED, "routine_missing");
        sql(1317, "70100", RETRY, TARGET_STATEMENT_FAILED, "interrupted");
        sql(1359, "HY000", FATAL, TARGET_STATEMENT_FAILED, "trigger_exists");
        sql(1360, "HY000", FATAL, TARGET_STATEMENT_FAILED, "trigger_missing");
        sql(1366, "22007", FATAL, TARGET_VALUE_REJECTED, "incorrect_field_value");
        sql(1396, "HY000", FATAL, TARGET_STATEMENT_FAILED, "user_operation_failed");
        sql(1406, "22001", FATAL, TARGET_VALUE_REJECTED, "data_too_long");
        sql(1451, "23000", FATAL, TARGET_DATA_CONFLICT, "row_is_referenced");
        sql(1452, "23000", FATAL, TARGET_DATA_CONFLICT, "no_referenced_row");
        sql(1610, "HY000", FATAL, TARGET_VALUE_REJECTED, "corrupt_event");
        sql(1677, "HY000", FATAL, TARGET_VALUE_REJECTED, "conversion_failed");
        sql(1826, "23000", FATAL, TARGET_STATEMENT_FAILED, "duplicate_foreign_key");
        sql(1927, "70100", RECONNECT, TARGET_UNREACHABLE, "connection_killed");
        sql(4093, "HY000", FATAL, TARGET_STATEMENT_FAILED, "duplicate_constraint");
        // A target restarting, failing over or full: it passes, so the applier waits for it.
        sql(1040, "08004", RECONNECT, TARGET_UNREACHABLE, "too_many_connections",
            RECONNECT, SOURCE_UNREACHABLE, "too_many_connections");
        sql(1836, "HY000", RECONNECT, TARGET_UNREACHABLE, "read_only_mode");
        ROWS.add(new Row(TARGET, new SQLException("The MariaDB server is running with the --read-only option so it"
            + " cannot execute this statement", "HY000", 1290), RECONNECT, TARGET_UNREACHABLE, "read_only"));
        ROWS.add(new Row(TARGET, new SQLException("The MariaDB server is running with the --secure-file-priv option"
            + " so it cannot execute this statement", "HY000", 1290), FATAL, TARGET_STATEMENT_FAILED,
            "statement_failed"));
        ROWS.add(new Row(SOURCE, new SQLException("The MariaDB server is running with the --read-only option so it"
            + " cannot execute this statement", "HY000", 1290), RECONNECT, SOURCE_UNREACHABLE, "server_error"));
        sql(2006, "08S01", RECONNECT, TARGET_UNREACHABLE, "server_gone", RECONNECT, SOURCE_UNREACHABLE, "server_gone");
        sql(2013, "08S01", RECONNECT, TARGET_UNREACHABLE, "connection_lost",
            RECONNECT, SOURCE_UNREACHABLE, "connection_lost");

        // SQLSTATE decides where the code does not.
        sql(0, "08S01", RECONNECT, TARGET_UNREACHABLE, "connection_failed",
            RECONNECT, SOURCE_UNREACHABLE, "connection_failed");
        sql(0, null, FATAL, TARGET_STATEMENT_FAILED, "statement_failed",
            RECONNECT, SOURCE_UNREACHABLE, "connection_failed");
        sql(9999, "40001", RETRY, TARGET_STATEMENT_FAILED, "serialization_failure");
        sql(9999, "HY000", FATAL, TARGET_STATEMENT_FAILED, "statement_failed");
        // A retry outranks a broken connection; a code's exit code outranks the SQLSTATE's.
        sql(1205, "08S01", RETRY, TARGET_STATEMENT_FAILED, "lock_wait_timeout",
            RECONNECT, SOURCE_UNREACHABLE, "lock_wait_timeout");
        sql(1045, "08004", RECONNECT, TARGET_ACCESS_DENIED, "access_denied",
            FATAL, SOURCE_ACCESS_DENIED, "access_denied");
        sql(2013, "HY000", RECONNECT, TARGET_UNREACHABLE, "connection_lost");
        both(new SQLTransientConnectionException("pool timed out"), RECONNECT, TARGET_UNREACHABLE, SOURCE_UNREACHABLE,
            "connection_failed");

        // The binlog protocol's server errors (the source's binlog connection; SQLSTATE unused).
        ROWS.add(new Row(SOURCE, new ServerException("Could not find first log file name in binary log index file",
            1236, "HY000"), FATAL, SOURCE_POSITION_UNAVAILABLE, "position_unavailable"));
        // A binlog file the source's index lists is gone from its disk (mysys EE_FILENOTFOUND, as MariaDB sends it).
        ROWS.add(new Row(SOURCE, new ServerException("File './mysql-bin.000003' not found (Errcode: 2 \"No such file or"
            + " directory\")", 29, "HY000"), FATAL, SOURCE_POSITION_UNAVAILABLE, "binlog_file_missing"));
        ROWS.add(new Row(SOURCE, new ServerException("A slave with the same server_uuid/server_id as this slave has"
            + " connected to the master", 1236, "HY000"), FATAL, SOURCE_SERVER_ID_IN_USE, "server_id_in_use"));
        ROWS.add(new Row(SOURCE, new ServerException("Lost connection", 2013, "08S01"), RECONNECT, SOURCE_UNREACHABLE,
            "server_error"));
        ROWS.add(new Row(SOURCE, new ServerException("denied", 1227, "42000"), FATAL, SOURCE_PRIVILEGE,
            "privilege_denied"));
        ROWS.add(new Row(SOURCE, new ServerException("Access denied", 1045, "28000"), FATAL, SOURCE_ACCESS_DENIED,
            "access_denied"));
        ROWS.add(new Row(TARGET, new ServerException("Lock wait timeout", 1205, "HY000"), RETRY,
            TARGET_STATEMENT_FAILED, "lock_wait_timeout"));
        both(new AuthenticationException("Access denied for user 'repl'"), FATAL, TARGET_ACCESS_DENIED,
            SOURCE_ACCESS_DENIED, "access_denied");

        // I/O failures, bare and wrapped (the binlog library and HikariCP wrap them).
        both(new UnknownHostException("nohost"), RECONNECT, TARGET_UNREACHABLE, SOURCE_UNREACHABLE, "unknown_host");
        both(new ConnectException("Connection refused"), RECONNECT, TARGET_UNREACHABLE, SOURCE_UNREACHABLE,
            "connection_refused");
        both(new NoRouteToHostException("No route to host"), RECONNECT, TARGET_UNREACHABLE, SOURCE_UNREACHABLE,
            "no_route_to_host");
        both(new SocketTimeoutException("Read timed out"), RECONNECT, TARGET_UNREACHABLE, SOURCE_UNREACHABLE,
            "timeout");
        both(new EOFException("the source closed the connection"), RECONNECT, TARGET_UNREACHABLE, SOURCE_UNREACHABLE,
            "connection_closed");
        both(new SocketException("Connection reset"), RECONNECT, TARGET_UNREACHABLE, SOURCE_UNREACHABLE,
            "socket_error");
        both(new IOException("Stream closed"), RECONNECT, TARGET_UNREACHABLE, SOURCE_UNREACHABLE, "io_error");
        both(new RuntimeException("wrapper", new IOException("wrapper", new ConnectException("refused"))), RECONNECT,
            TARGET_UNREACHABLE, SOURCE_UNREACHABLE, "connection_refused");
        ROWS.add(new Row(TARGET, new RuntimeException("pool", new SQLException("Deadlock", "40001", 1213)), RETRY,
            TARGET_STATEMENT_FAILED, "deadlock"));

        // Neither server's doing.
        both(new BinlogFormatException("bad event"), FATAL, SOURCE_UNSUPPORTED, SOURCE_UNSUPPORTED,
            "undecodable_binlog");
        both(new IllegalStateException("bug"), FATAL, INTERNAL, INTERNAL, "internal");

        // Already classified: the exit code stands; only the side's own "unreachable" reconnects.
        ROWS.add(new Row(SOURCE, new ApplierException(SOURCE_UNREACHABLE, "lost", new SQLException("x", "42000", 1064)),
            RECONNECT, SOURCE_UNREACHABLE, "source_unreachable"));
        ROWS.add(new Row(SOURCE, new ApplierException(TARGET_UNREACHABLE, "lost", new EOFException()),
            FATAL, TARGET_UNREACHABLE, "target_unreachable"));
        ROWS.add(new Row(TARGET, new ApplierException(TARGET_UNREACHABLE, "lost"),
            RECONNECT, TARGET_UNREACHABLE, "target_unreachable"));
        ROWS.add(new Row(TARGET, new ApplierException(TARGET_DATA_CONFLICT, "dup", new ConnectException()),
            FATAL, TARGET_DATA_CONFLICT, "target_data_conflict"));
        // A wrapped one (no cause of its own) stands too.
        ROWS.add(new Row(SOURCE, new RuntimeException(new ApplierException(SOURCE_POSITION_UNAVAILABLE, "purged")),
            FATAL, SOURCE_POSITION_UNAVAILABLE, "source_position_unavailable"));
    }

    static List<Row> rows() {
        return ROWS;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void classifies(Row row) {
        Classification c = ErrorClassifier.classify(row.thrown(), row.side());
        assertThat(c.action()).as("action").isEqualTo(row.action());
        assertThat(c.exitCode()).as("exit code").isEqualTo(row.exitCode());
        assertThat(c.reason()).as("reason").isEqualTo(row.reason());
        assertThat(c.fix()).as("fix").isNotBlank();
    }

    @Test
    void everyVendorCodeHasARowOnEachSide() {
        for (Side side : Side.values()) {
            EnumSet<VendorCode> covered = ROWS.stream().filter(r -> r.side() == side).map(Row::code)
                .filter(Objects::nonNull).collect(Collectors.toCollection(() -> EnumSet.noneOf(VendorCode.class)));
            assertThat(EnumSet.complementOf(covered)).as("vendor codes without a " + side + " row")
                .isEmpty();
        }
    }

    @Test
    void vendorCodesLookUpByNumberAndHaveDistinctSnakeCaseReasons() {
        Set<String> reasons = new HashSet<>();
        for (VendorCode v : VendorCode.values()) {
            assertThat(VendorCode.of(v.code())).isSameAs(v);
            assertThat(v.is(new SQLException("m", "HY000", v.code()))).isTrue();
            assertThat(v.reason()).matches("[a-z]+(_[a-z]+)*");
            assertThat(reasons.add(v.reason())).as("reason %s used twice", v.reason()).isTrue();
        }
        assertThat(VendorCode.of(0)).isNull();
        assertThat(VendorCode.of(9999)).isNull();
        assertThat(VendorCode.ER_DUP_ENTRY.is(new SQLException("m", "23000", 1061))).isFalse();
    }

    @Test
    void fixesNameWhatToDo() {
        assertThat(fix(new SQLException("m", "08S01", 1153), TARGET))
            .isEqualTo("raise max_allowed_packet on the target");
        assertThat(fix(new SQLException("m", "22001", 1406), TARGET)).startsWith("the target column cannot hold");
        assertThat(fix(new SQLException("m", "28000", 1045), TARGET))
            .isEqualTo("check target.user and target.password");
        assertThat(fix(new AuthenticationException("no"), SOURCE)).isEqualTo("check source.user and source.password");
        assertThat(fix(new ConnectException("no"), SOURCE))
            .isEqualTo("check source.host/source.port and that the server is running");
        assertThat(fix(new UnknownHostException("no"), TARGET)).isEqualTo("check target.host");
    }

    @Test
    void firstLineKeepsOneTrimmedLine() {
        assertThat(Messages.firstLine("Out of range \nat row 1")).isEqualTo("Out of range");
        assertThat(Messages.firstLine((String) null)).isEqualTo("no message");
        assertThat(Messages.firstLine(new SQLException("a\r\nb"))).isEqualTo("a");
        assertThat(Messages.firstLine(new IllegalStateException())).isEqualTo("java.lang.IllegalStateException");
        assertThat(Messages.withCode(new SQLException("Deadlock found\nmore", "40001", 1213)))
            .isEqualTo("1213: Deadlock found");
    }

    private static String fix(Throwable t, Side side) {
        return ErrorClassifier.classify(t, side).fix();
    }
}
