package io.binlogapplier.apply;

import io.binlogapplier.ExitCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class SqlErrorsTest {
    @ParameterizedTest(name = "{0} {1} -> {2} / {3}")
    @CsvSource({
        "1213, 40001, RETRY, TARGET_STATEMENT_FAILED",
        "1205, HY000, RETRY, TARGET_STATEMENT_FAILED",
        "1317, 70100, RETRY, TARGET_STATEMENT_FAILED",
        "2013, 08S01, RECONNECT, TARGET_UNREACHABLE",
        "0, 08S01, RECONNECT, TARGET_UNREACHABLE",
        "1927, 70100, RECONNECT, TARGET_UNREACHABLE",
        "1062, 23000, FATAL, TARGET_DATA_CONFLICT",
        "1452, 23000, FATAL, TARGET_DATA_CONFLICT",
        "1146, 42S02, FATAL, TARGET_SCHEMA_MISMATCH",
        "1054, 42S22, FATAL, TARGET_SCHEMA_MISMATCH",
        "1264, 22003, FATAL, TARGET_VALUE_REJECTED",
        "1406, 22001, FATAL, TARGET_VALUE_REJECTED",
        "1366, 22007, FATAL, TARGET_VALUE_REJECTED",
        "1153, 08S01, RECONNECT, TARGET_VALUE_REJECTED",
        "1142, 42000, FATAL, TARGET_PRIVILEGE",
        "1227, 42000, FATAL, TARGET_PRIVILEGE",
        "1045, 28000, FATAL, TARGET_ACCESS_DENIED",
        "1064, 42000, FATAL, TARGET_STATEMENT_FAILED",
    })
    void classifiesEachError(int code, String state, SqlErrors.Verdict verdict, ExitCode exit) {
        SQLException e = new SQLException("message", state, code);
        assertThat(SqlErrors.verdict(e)).isEqualTo(verdict);
        assertThat(SqlErrors.exitCode(e)).isEqualTo(exit);
    }

    @org.junit.jupiter.api.Test
    void aFatalErrorNamesWhatFailedWhereAndTheFix() {
        String m = SqlErrors.fatal(new SQLException("Out of range value for column 'c' at row 1", "22003", 1264),
            "INSERT into `d`.`t`", "transaction 0-1-5 at mysql-bin.000001:400").getMessage();
        assertThat(m).isEqualTo("INSERT into `d`.`t` failed on the target (error 1264: Out of range value for column"
            + " 'c' at row 1) in transaction 0-1-5 at mysql-bin.000001:400: the target column cannot hold the source's"
            + " value: give it the source's type (SHOW CREATE TABLE on both) and restart");
    }
}
