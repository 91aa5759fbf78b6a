package io.binlogapplier.apply;

import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Side;
import io.binlogapplier.errors.VendorCode;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** The facade adds nothing: its rows live in {@code ErrorClassifierTest}. */
class SqlErrorsTest {
    @Test
    void agreesWithTheClassifierOnTheTargetSide() {
        for (VendorCode v : VendorCode.values()) {
            for (String state : new String[] {"HY000", "08S01", "40001", null}) {
                SQLException e = new SQLException("message", state, v.code());
                Classification c = ErrorClassifier.classify(e, Side.TARGET);
                assertThat(SqlErrors.verdict(e).name()).as("%s %s", v, state).isEqualTo(c.action().name());
                assertThat(SqlErrors.exitCode(e)).as("%s %s", v, state).isEqualTo(c.exitCode());
            }
        }
    }

    @Test
    void aFatalErrorNamesWhatFailedWhereAndTheFix() {
        String m = SqlErrors.fatal(new SQLException("Out of range value for column 'c' at row 1", "22003", 1264),
            "INSERT into `d`.`t`", "transaction 0-1-5 at mysql-bin.000001:400").getMessage();
        assertThat(m).isEqualTo("INSERT into `d`.`t` failed on the target (error 1264: Out of range value for column"
            + " 'c' at row 1) in transaction 0-1-5 at mysql-bin.000001:400: the target column cannot hold the source's"
            + " value: give it the source's type (SHOW CREATE TABLE on both) and restart");
    }

    @Test
    void firstLineOfQuotesTheCode() {
        assertThat(SqlErrors.firstLineOf(new SQLException("Deadlock found when trying to get lock\ndetail", "40001",
            1213))).isEqualTo("1213: Deadlock found when trying to get lock");
    }
}
