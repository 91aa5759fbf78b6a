package io.binlogapplier.privilege;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GrantsTest {
    @Test
    void mariadbGlobalGrantsAreReadWithTheirSpacesAndPasswordClause() {
        Grants g = Grants.parse(List.of("GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO `repl`@`%`"
            + " IDENTIFIED BY PASSWORD '*A424E797037BF97C19A2E88CF7891C5C2038C039'"));

        assertThat(g.global("REPLICATION SLAVE")).isTrue();
        assertThat(g.global("binlog monitor")).isTrue();
        assertThat(g.global("SUPER")).isFalse();
        assertThat(g.onSchema("shop", "SELECT")).isFalse();
        assertThat(g.hasRoles()).isFalse();
    }

    @Test
    void allPrivilegesOnStarStarGrantsEverything() {
        Grants g = Grants.parse(List.of("GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION",
            "GRANT PROXY ON ''@'%' TO 'root'@'localhost' WITH GRANT OPTION"));

        assertThat(g.global("SUPER")).isTrue();
        assertThat(g.onSchema("anything", "DELETE")).isTrue();
    }

    @Test
    void schemaGrantsMatchTheirLikePatternAndColumnGrantsAreNotTableGrants() {
        Grants g = Grants.parse(List.of(
            "GRANT USAGE ON *.* TO `applier`@`%`",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON `shop`.* TO `applier`@`%`",
            "GRANT CREATE ON `binlog\\_applier`.* TO `applier`@`%`",
            "GRANT SELECT, UPDATE (`a`, `b`) ON `crm`.`t` TO `applier`@`%`",
            "GRANT ALTER ON `test%`.* TO `applier`@`%`"));

        assertThat(g.onSchema("shop", "INSERT")).isTrue();
        assertThat(g.onSchema("shop", "CREATE")).isFalse();
        assertThat(g.onSchema("binlog_applier", "CREATE")).isTrue();
        assertThat(g.onSchema("binlogXapplier", "CREATE")).as("an escaped _ is literal").isFalse();
        assertThat(g.onSchema("test_1", "ALTER")).isTrue();
        assertThat(g.onSchema("crm", "SELECT")).as("a table grant is not a schema grant").isFalse();
        assertThat(g.perTable("crm")).isTrue();
        assertThat(g.perTable("shop")).isFalse();
        assertThat(g.global("USAGE")).isTrue();
    }

    @Test
    void mysqlDynamicPrivilegesAndRolesAreRecognised() {
        Grants g = Grants.parse(List.of(
            "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO `repl`@`%`",
            "GRANT BINLOG_ADMIN,SYSTEM_VARIABLES_ADMIN ON *.* TO `repl`@`%`",
            "GRANT `dba`@`%` TO `repl`@`%`"));

        assertThat(g.global("SYSTEM_VARIABLES_ADMIN")).isTrue();
        assertThat(g.global("BINLOG_ADMIN")).isTrue();
        assertThat(g.global("REPLICATION CLIENT")).isTrue();
        assertThat(g.hasRoles()).isTrue();
    }

    @Test
    void aSchemaNamedWithBackquotesDotsOrTheWordOnIsParsed() {
        Grants g = Grants.parse(List.of("GRANT SELECT ON `we``ird. on TO`.* TO `u`@`%`",
            "GRANT EXECUTE ON PROCEDURE `shop`.`p` TO `u`@`%`"));

        assertThat(g.onSchema("we`ird. on TO", "SELECT")).isTrue();
        assertThat(g.onSchema("shop", "EXECUTE")).isFalse();
    }
}
