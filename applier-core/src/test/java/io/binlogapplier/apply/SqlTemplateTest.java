package io.binlogapplier.apply;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlTemplateTest {
    @Test
    void splitsAtTheMarkersOnly() {
        SqlTemplate t = SqlTemplate.of("UPDATE `d`.`a?b` SET `c`=CAST(? AS BINARY) WHERE `i``?`=? LIMIT 1");
        assertThat(t.params()).isEqualTo(2);
        assertThat(t.part(0)).isEqualTo("UPDATE `d`.`a?b` SET `c`=CAST(");
        assertThat(t.part(1)).isEqualTo(" AS BINARY) WHERE `i``?`=");
        assertThat(t.part(2)).isEqualTo(" LIMIT 1");
    }

    @Test
    void aStatementWithoutMarkersIsOnePart() {
        SqlTemplate t = SqlTemplate.of("DELETE FROM `t` WHERE 'a?'");
        assertThat(t.params()).isZero();
        assertThat(t.part(0)).isEqualTo("DELETE FROM `t` WHERE 'a?'");
    }

    @Test
    void everyStatementRowSqlWritesSplitsIntoOnePartPerParameter() {
        ColumnInfo id = new ColumnInfo("i?d", 0, "int", "int(11)", null, null, false, false);
        ColumnInfo name = new ColumnInfo("n", 1, "varchar", "varchar(10)", "latin1", "latin1_swedish_ci", true, false);
        TableSchema t = new TableSchema("d", "t", java.util.List.of(id, name), java.util.List.of(0),
            java.util.List.of(new TableSchema.KeyInfo("PRIMARY", java.util.List.of(0))), java.util.List.of(0), "InnoDB",
            true, false, java.util.List.of(), false);
        assertThat(SqlTemplate.of(RowSql.update(t, java.util.List.of(id, name), java.util.List.of(id, name), false))
            .params()).isEqualTo(4);
        assertThat(SqlTemplate.of(RowSql.insert(t, java.util.List.of(id, name), 3, false)).params()).isEqualTo(6);
        assertThat(SqlTemplate.of(RowSql.deleteByKeys(t, java.util.List.of(id), 4)).params()).isEqualTo(4);
    }

    @Test
    void anUnterminatedQuoteIsRefused() {
        assertThatThrownBy(() -> SqlTemplate.of("SELECT `a")).isInstanceOf(IllegalArgumentException.class);
    }
}
