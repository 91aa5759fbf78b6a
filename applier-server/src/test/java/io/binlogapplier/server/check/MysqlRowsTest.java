package io.binlogapplier.server.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.apply.ServerVersion;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.privilege.Grants;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Each check row of issue 17, PASS and WARN/FAIL, from what the servers would answer. */
class MysqlRowsTest {
    private static final ServerVersion MYSQL84 = ServerVersion.parseOrNull("8.4.3");
    private static final ServerVersion MARIADB = ServerVersion.parseOrNull("10.11.9-MariaDB");
    private static final String USER = "applier";

    private static Grants grants(String... privileges) {
        return Grants.parse(List.of("GRANT SELECT, INSERT, UPDATE, DELETE ON `shop`.* TO `applier`@`%`",
            "GRANT " + (privileges.length == 0 ? "USAGE" : String.join(",", privileges)) + " ON *.* TO `applier`@`%`"));
    }

    private static CheckResult.Verdict verdict(java.util.Optional<CheckResult> r) {
        assertThat(r).isPresent();
        return r.get().verdict();
    }

    @Test
    void triggerTablesNeedTheVendorsBinlogPrivilegeUnderTheSqlMethod() {
        List<String> tables = List.of("shop.orders");
        CheckResult fail = MysqlRows.triggerTables(ApplyMethod.SQL, MYSQL84, grants(), null, USER, tables).get();
        assertThat(fail.verdict()).isEqualTo(CheckResult.Verdict.FAIL);
        assertThat(fail.detail()).contains("BINLOG_ADMIN").doesNotContain("BINLOG REPLAY");
        assertThat(verdict(MysqlRows.triggerTables(ApplyMethod.SQL, MYSQL84, grants("REPLICATION_APPLIER"), null, USER,
            tables))).isEqualTo(CheckResult.Verdict.PASS);
        assertThat(verdict(MysqlRows.triggerTables(ApplyMethod.SQL, MYSQL84, grants("BINLOG_ADMIN"), null, USER,
            tables))).isEqualTo(CheckResult.Verdict.PASS);
        CheckResult maria = MysqlRows.triggerTables(ApplyMethod.AUTO, MARIADB, grants(), null, USER, tables).get();
        assertThat(maria.verdict()).isEqualTo(CheckResult.Verdict.FAIL);
        assertThat(maria.detail()).contains("BINLOG REPLAY");
        assertThat(verdict(MysqlRows.triggerTables(ApplyMethod.SQL, MYSQL84, grants(), null, USER, List.of())))
            .isEqualTo(CheckResult.Verdict.PASS);
        assertThat(MysqlRows.triggerTables(ApplyMethod.BINLOG, MYSQL84, grants(), null, USER, tables)).isEmpty();
        assertThat(verdict(MysqlRows.triggerTables(ApplyMethod.SQL, MYSQL84, null, "denied", USER, tables)))
            .isEqualTo(CheckResult.Verdict.WARN);
    }

    @Test
    void versionedAndLongUniqueTablesOfAMariadbTargetNeedBinlogReplayUnlessTheMethodIsBinlog() {
        List<String> tables = List.of("shop.history", "shop.notes");
        CheckResult fail = MysqlRows.hiddenColumnTables(ApplyMethod.SQL, MARIADB, grants(), null, USER, tables).get();
        assertThat(fail.verdict()).isEqualTo(CheckResult.Verdict.FAIL);
        assertThat(fail.detail()).contains("2 system-versioned tables or tables with a long UNIQUE key"
            + " (shop.history, shop.notes)").contains("BINLOG REPLAY");
        assertThat(verdict(MysqlRows.hiddenColumnTables(ApplyMethod.AUTO, MARIADB, grants("BINLOG REPLAY"), null, USER,
            tables))).isEqualTo(CheckResult.Verdict.PASS);
        assertThat(verdict(MysqlRows.hiddenColumnTables(ApplyMethod.SQL, MARIADB, grants(), null, USER, List.of())))
            .isEqualTo(CheckResult.Verdict.PASS);
        // binlog applies every table that way already (its own row checks the privilege); MySQL has neither kind
        assertThat(MysqlRows.hiddenColumnTables(ApplyMethod.BINLOG, MARIADB, grants(), null, USER, tables)).isEmpty();
        assertThat(MysqlRows.hiddenColumnTables(ApplyMethod.SQL, MYSQL84, grants(), null, USER, tables)).isEmpty();
    }

    @Test
    void jsonColumnsOnAMysqlTargetWarnWithoutABinlogPrivilege() {
        assertThat(verdict(MysqlRows.jsonColumns(ApplyMethod.SQL, MYSQL84, grants(), null, USER, 3)))
            .isEqualTo(CheckResult.Verdict.WARN);
        assertThat(verdict(MysqlRows.jsonColumns(ApplyMethod.SQL, MYSQL84, grants("BINLOG_ADMIN"), null, USER, 3)))
            .isEqualTo(CheckResult.Verdict.PASS);
        assertThat(verdict(MysqlRows.jsonColumns(ApplyMethod.SQL, MYSQL84, grants(), null, USER, 0)))
            .isEqualTo(CheckResult.Verdict.PASS);
        assertThat(MysqlRows.jsonColumns(ApplyMethod.SQL, MARIADB, grants(), null, USER, 3)).isEmpty();
    }

    @Test
    void sessionVariablesNeedSessionVariablesAdminOnMysql() {
        CheckResult warn = MysqlRows.sessionVariables(MYSQL84, grants(), null, USER).get();
        assertThat(warn.verdict()).isEqualTo(CheckResult.Verdict.WARN);
        assertThat(warn.detail()).contains("GRANT SESSION_VARIABLES_ADMIN ON *.* TO 'applier'");
        assertThat(verdict(MysqlRows.sessionVariables(MYSQL84, grants("SESSION_VARIABLES_ADMIN"), null, USER)))
            .isEqualTo(CheckResult.Verdict.PASS);
        assertThat(verdict(MysqlRows.sessionVariables(MYSQL84, grants("SYSTEM_VARIABLES_ADMIN"), null, USER)))
            .isEqualTo(CheckResult.Verdict.PASS);
        assertThat(MysqlRows.sessionVariables(MARIADB, grants(), null, USER)).isEmpty();
    }

    @Test
    void requireSecureTransportFailsWhileTheBinlogConnectionHasNoTls() {
        CheckResult fail = MysqlRows.secureTransport("ON", false).get();
        assertThat(fail.verdict()).isEqualTo(CheckResult.Verdict.FAIL);
        assertThat(fail.detail()).contains("require_secure_transport=OFF");
        assertThat(verdict(MysqlRows.secureTransport("1", false))).isEqualTo(CheckResult.Verdict.FAIL);
        assertThat(verdict(MysqlRows.secureTransport("OFF", false))).isEqualTo(CheckResult.Verdict.PASS);
        assertThat(verdict(MysqlRows.secureTransport("ON", true))).isEqualTo(CheckResult.Verdict.PASS);
        assertThat(MysqlRows.secureTransport(null, false)).isEmpty();
    }

    @Test
    void compressionIsReportedForMysqlSources() {
        assertThat(MysqlRows.compression(false, "ON").get().detail()).contains("parts");
        assertThat(verdict(MysqlRows.compression(false, "OFF"))).isEqualTo(CheckResult.Verdict.PASS);
        assertThat(MysqlRows.compression(true, null)).isEmpty();
    }

    @Test
    void hiddenGeneratedInvisiblePrimaryKeysWarn() {
        assertThat(verdict(MysqlRows.invisiblePrimaryKeys(MYSQL84, "OFF"))).isEqualTo(CheckResult.Verdict.WARN);
        assertThat(verdict(MysqlRows.invisiblePrimaryKeys(MYSQL84, "ON"))).isEqualTo(CheckResult.Verdict.PASS);
        assertThat(MysqlRows.invisiblePrimaryKeys(ServerVersion.parseOrNull("8.0.28"), null)).isEmpty();
        assertThat(MysqlRows.invisiblePrimaryKeys(MARIADB, "OFF")).isEmpty();
    }
}
