package io.binlogapplier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.ExitCode;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

/** Issue 17 #3/#4: the privilege messages name the target vendor's own privilege. */
class PrivilegeMessagesTest {
    private static final SQLException MYSQL_DENIED = new SQLException("Access denied; you need (at least one of) the"
        + " SUPER, SYSTEM_VARIABLES_ADMIN or SESSION_VARIABLES_ADMIN privilege(s) for this operation", "42000", 1227);

    @Test
    void aMysqlTargetIsToldToGrantBinlogAdminNotMariadbsBinlogReplay() {
        var e = BinlogStatements.privilegeMissing(false, new SQLException("Access denied; you need (at least one of)"
            + " the SUPER, BINLOG_ADMIN privilege(s) for this operation", "42000", 1227));
        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_PRIVILEGE);
        assertThat(e.getMessage()).contains("GRANT BINLOG_ADMIN ON *.*").contains("REPLICATION_APPLIER")
            .doesNotContain("BINLOG REPLAY");
    }

    @Test
    void aMariadbTargetIsStillToldBinlogReplay() {
        var e = BinlogStatements.privilegeMissing(true, new SQLException("denied", "42000", 1227));
        assertThat(e.getMessage()).contains("GRANT BINLOG REPLAY ON *.*").doesNotContain("BINLOG_ADMIN");
    }

    @Test
    void aDeniedSessionContextNamesSessionVariablesAdmin() {
        var e = StatementRunner.contextDenied(MYSQL_DENIED, "transaction at binlog.000001:4");
        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_PRIVILEGE);
        assertThat(e.getMessage()).contains("GRANT SESSION_VARIABLES_ADMIN ON *.*")
            .contains("transaction at binlog.000001:4");
    }
}
