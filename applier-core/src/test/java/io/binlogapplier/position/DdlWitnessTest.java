package io.binlogapplier.position;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which dictionary entries a DDL's witness covers: the tables the statement may name, and only those. */
class DdlWitnessTest {
    @Test
    void theWordsOfAStatementThatMayNameTables() {
        assertThat(DdlWitness.names("RENAME TABLE `Shop`.a TO shop.tmp_1, b TO a /* swap */"))
            .containsExactlyInAnyOrder("rename", "table", "shop", "a", "to", "tmp_1", "b", "swap");
    }

    @Test
    void partitionsBelongToTheirTable() {
        assertThat(DdlWitness.tableOf("shop/orders")).isEqualTo("orders");
        assertThat(DdlWitness.tableOf("shop/Orders#P#p2020")).isEqualTo("orders");
        assertThat(DdlWitness.tableOf("shop/orders#p#p2020#sp#s0")).isEqualTo("orders");
    }

    @Test
    void aTableTheStatementDoesNotNameIsLeftOut() {
        // another stream's DDL on the same target while this one's was pending must not pass for it
        assertThat(DdlWitness.names("ALTER TABLE p EXCHANGE PARTITION p2020 WITH TABLE px"))
            .contains("p", "px").doesNotContain("orders");
    }
}
