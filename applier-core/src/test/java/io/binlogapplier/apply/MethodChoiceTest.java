package io.binlogapplier.apply;

import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.privilege.Grants;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every branch of apply.method auto, from the facts a start reads (versions as VERSION() gives them, SHOW GRANTS lines). */
class MethodChoiceTest {
    private static final String MARIADB_10_11 = "10.11.19-MariaDB-0+deb12u1-log";
    private static final String MARIADB_11_4 = "11.4.5-MariaDB";
    private static final String MARIADB_10_4 = "10.4.34-MariaDB-log";
    private static final String MYSQL_8_0 = "8.0.36";
    private static final String MYSQL_8_4 = "8.4.3";
    private static final String MYSQL_5_7 = "5.7.44-log";

    private static MethodChoice auto(String source, String target, String... grantLines) {
        return MethodChoice.decide(ApplyMethod.AUTO, new MethodChoice.Facts(ServerVersion.parseOrNull(source),
            ServerVersion.parseOrNull(target), Grants.parse(List.of(grantLines)), null, "applier", null));
    }

    @Test
    void sqlAndBinlogAreUsedAsConfiguredWithoutLookingAtTheFacts() {
        MethodChoice.Facts none = new MethodChoice.Facts(null, null, null, "not asked", "applier", null);

        assertThat(MethodChoice.decide(ApplyMethod.SQL, none)).isEqualTo(MethodChoice.configured(ApplyMethod.SQL));
        assertThat(MethodChoice.decide(ApplyMethod.BINLOG, none).method()).isEqualTo(ApplyMethod.BINLOG);
        assertThat(MethodChoice.decide(ApplyMethod.BINLOG, none).auto()).isFalse();
        assertThat(MethodChoice.configured(ApplyMethod.SQL).summary()).isEqualTo("sql (apply.method is sql)");
    }

    @Test
    void sameKindSameVersionWithBinlogReplayChoosesBinlog() {
        MethodChoice c = auto(MARIADB_10_11, MARIADB_10_11, "GRANT BINLOG REPLAY, SELECT ON *.* TO `applier`@`%`");

        assertThat(c.method()).isEqualTo(ApplyMethod.BINLOG);
        assertThat(c.auto()).isTrue();
        assertThat(c.changeWouldHelp()).isFalse();
        assertThat(c.logLine()).isEqualTo("apply.method auto: using binlog because the target (MariaDB 10.11) is the"
            + " source's kind and not older (source MariaDB 10.11), and user 'applier' may run BINLOG statements"
            + " (BINLOG REPLAY); set apply.method: sql to use the sql method instead");
    }

    @Test
    void allPrivilegesOnStarStarIncludesBinlogReplay() {
        assertThat(auto(MARIADB_10_11, MARIADB_10_11, "GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT"
            + " OPTION").method()).isEqualTo(ApplyMethod.BINLOG);
    }

    @Test
    void aNewerTargetOfTheSameKindChoosesBinlogAndAnotherPatchReleaseIsNotOlder() {
        assertThat(auto(MARIADB_10_11, MARIADB_11_4, "GRANT BINLOG REPLAY ON *.* TO `applier`@`%`").method())
            .isEqualTo(ApplyMethod.BINLOG);
        assertThat(auto("10.11.20-MariaDB", "10.11.2-MariaDB", "GRANT BINLOG REPLAY ON *.* TO `applier`@`%`").method())
            .isEqualTo(ApplyMethod.BINLOG);
    }

    @Test
    void withoutTheGrantSqlIsChosenAndTheLineSaysWhichGrantGivesBinlog() {
        MethodChoice c = auto(MARIADB_10_11, MARIADB_10_11, "GRANT USAGE ON *.* TO `applier`@`%`",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON `shop`.* TO `applier`@`%`");

        assertThat(c.method()).isEqualTo(ApplyMethod.SQL);
        assertThat(c.changeWouldHelp()).isTrue();
        assertThat(c.logLine()).isEqualTo("apply.method auto: using sql because the target user 'applier' lacks BINLOG"
            + " REPLAY; GRANT BINLOG REPLAY ON *.* TO 'applier' to use the faster binlog method");
    }

    @Test
    void superCountsOnMariadbBefore105AndFrom1011ButNotInBetween() {
        assertThat(auto(MARIADB_10_4, MARIADB_10_4, "GRANT SUPER ON *.* TO `applier`@`%`").method())
            .isEqualTo(ApplyMethod.BINLOG);
        assertThat(auto(MARIADB_10_4, MARIADB_10_4, "GRANT USAGE ON *.* TO `applier`@`%`").logLine())
            .contains("lacks SUPER; GRANT SUPER ON *.* TO 'applier'");
        assertThat(auto("10.6.21-MariaDB", "10.6.21-MariaDB", "GRANT SUPER ON *.* TO `applier`@`%`").logLine())
            .contains("lacks BINLOG REPLAY; GRANT BINLOG REPLAY ON *.* TO 'applier'");
        assertThat(auto(MARIADB_10_11, MARIADB_10_11, "GRANT SUPER ON *.* TO `applier`@`%`").method())
            .isEqualTo(ApplyMethod.BINLOG);
        assertThat(auto(MARIADB_10_11, MARIADB_11_4, "GRANT SUPER ON *.* TO `applier`@`%`").method())
            .isEqualTo(ApplyMethod.BINLOG);
    }

    @Test
    void aPrivilegeOnlyOnOneSchemaDoesNotCount() {
        assertThat(auto(MARIADB_10_11, MARIADB_10_11, "GRANT ALL PRIVILEGES ON `shop`.* TO `applier`@`%`").method())
            .isEqualTo(ApplyMethod.SQL);
    }

    @Test
    void mysqlAcceptsBinlogAdminReplicationApplierOrSuper() {
        for (String privilege : List.of("BINLOG_ADMIN", "REPLICATION_APPLIER", "SUPER")) {
            assertThat(auto(MYSQL_8_0, MYSQL_8_4, "GRANT USAGE ON *.* TO `applier`@`%`", "GRANT " + privilege
                + " ON *.* TO `applier`@`%`").method()).as(privilege).isEqualTo(ApplyMethod.BINLOG);
        }
        assertThat(auto(MYSQL_8_4, MYSQL_8_4, "GRANT USAGE ON *.* TO `applier`@`%`").logLine())
            .contains("lacks BINLOG_ADMIN; GRANT BINLOG_ADMIN ON *.* TO 'applier'");
        assertThat(auto(MYSQL_5_7, MYSQL_5_7, "GRANT SUPER ON *.* TO 'applier'@'%'").method())
            .isEqualTo(ApplyMethod.BINLOG);
        assertThat(auto(MYSQL_5_7, MYSQL_5_7, "GRANT USAGE ON *.* TO 'applier'@'%'").because()).endsWith("lacks SUPER");
    }

    @Test
    void aTargetOfTheOtherKindGetsSqlWhateverItsGrants() {
        MethodChoice c = auto(MARIADB_10_11, MYSQL_8_4, "GRANT ALL PRIVILEGES ON *.* TO `applier`@`%`");

        assertThat(c.method()).isEqualTo(ApplyMethod.SQL);
        assertThat(c.changeWouldHelp()).isFalse();
        assertThat(c.logLine()).isEqualTo("apply.method auto: using sql because the target is MySQL 8.4 and the source"
            + " MariaDB 10.11: BINLOG statements need a target of the source's kind; the binlog method needs a MariaDB"
            + " target");
        assertThat(auto(MYSQL_8_0, MARIADB_11_4, "GRANT ALL PRIVILEGES ON *.* TO `applier`@`%`").method())
            .isEqualTo(ApplyMethod.SQL);
    }

    @Test
    void aTargetOlderInMajorMinorThanTheSourceGetsSql() {
        MethodChoice c = auto(MARIADB_11_4, MARIADB_10_11, "GRANT ALL PRIVILEGES ON *.* TO `applier`@`%`");

        assertThat(c.method()).isEqualTo(ApplyMethod.SQL);
        assertThat(c.changeWouldHelp()).isFalse();
        assertThat(c.logLine()).isEqualTo("apply.method auto: using sql because the target (MariaDB 10.11) is older"
            + " than the source (MariaDB 11.4) and may not read its row events; a target at MariaDB 11.4 or later"
            + " could use the faster binlog method");
        assertThat(auto(MYSQL_8_4, MYSQL_8_0, "GRANT BINLOG_ADMIN ON *.* TO `applier`@`%`").method())
            .isEqualTo(ApplyMethod.SQL);
    }

    @Test
    void aPrivilegeThatOnlyARoleMayGiveIsNotCounted() {
        MethodChoice c = auto(MARIADB_10_11, MARIADB_10_11, "GRANT `dba` TO `applier`@`%`",
            "GRANT USAGE ON *.* TO `applier`@`%`");

        assertThat(c.method()).isEqualTo(ApplyMethod.SQL);
        assertThat(c.changeWouldHelp()).isTrue();
        assertThat(c.because()).contains("roles are not checked");
        assertThat(c.other()).startsWith("GRANT BINLOG REPLAY ON *.* TO 'applier' (directly, not through a role)");
    }

    @Test
    void grantsThatCannotBeReadGiveSql() {
        MethodChoice c = MethodChoice.decide(ApplyMethod.AUTO, new MethodChoice.Facts(
            ServerVersion.parseOrNull(MARIADB_10_11), ServerVersion.parseOrNull(MARIADB_10_11), null,
            "Access denied for user 'applier'@'%' to database 'mysql'", "applier", null));

        assertThat(c.method()).isEqualTo(ApplyMethod.SQL);
        assertThat(c.changeWouldHelp()).isTrue();
        assertThat(c.because()).startsWith("SHOW GRANTS failed on the target (Access denied");
    }

    @Test
    void aVersionThatCannotBeReadGivesSql() {
        MethodChoice c = auto(MARIADB_10_11, "unknown", "GRANT ALL PRIVILEGES ON *.* TO `applier`@`%`");

        assertThat(c.method()).isEqualTo(ApplyMethod.SQL);
        assertThat(c.because()).isEqualTo("the target's version could not be read");
        assertThat(auto(null, MARIADB_10_11).because()).isEqualTo("the source's version could not be read");
    }

    @Test
    void anIdempotentExecModeGivesSqlEvenWithEveryPrivilegeAndSaysHowToGetBinlog() {
        MethodChoice c = MethodChoice.decide(ApplyMethod.AUTO, new MethodChoice.Facts(
            ServerVersion.parseOrNull(MARIADB_10_11), ServerVersion.parseOrNull(MARIADB_10_11),
            Grants.parse(List.of("GRANT ALL PRIVILEGES ON *.* TO `applier`@`%`")), null, "applier",
            "slave_exec_mode=IDEMPOTENT"));

        assertThat(c.method()).isEqualTo(ApplyMethod.SQL);
        assertThat(c.changeWouldHelp()).isTrue();
        assertThat(c.logLine()).isEqualTo("apply.method auto: using sql because the target's slave_exec_mode=IDEMPOTENT"
            + " makes a BINLOG statement overwrite a duplicate key and skip a missing row without an error;"
            + " SET GLOBAL slave_exec_mode = 'STRICT' to use the faster binlog method");
    }

    @Test
    void anExplicitBinlogMethodIsRefusedOnAnIdempotentTargetAndTheSqlMethodIsWarned() {
        assertThat(MethodChoice.idempotentRefusal(null)).isNull();
        assertThat(MethodChoice.idempotentCaveat(null)).isNull();
        assertThat(MethodChoice.idempotentRefusal("replica_exec_mode=IDEMPOTENT")).isEqualTo("apply.method binlog: the"
            + " target's replica_exec_mode=IDEMPOTENT makes a BINLOG statement overwrite a duplicate key and skip a"
            + " missing row without an error, so differences would go unnoticed: SET GLOBAL replica_exec_mode ="
            + " 'STRICT', or set apply.method: sql");
        assertThat(MethodChoice.idempotentCaveat("slave_exec_mode=IDEMPOTENT")).isEqualTo("the target's"
            + " slave_exec_mode=IDEMPOTENT: the BINLOG statements that carry the rows of tables with triggers on the"
            + " target would overwrite a duplicate key without an error; SET GLOBAL slave_exec_mode = 'STRICT'");
    }

    @Test
    void autoIsNeverAChosenMethod() {
        assertThatThrownBy(() -> new MethodChoice(ApplyMethod.AUTO, true, "", "", false))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
