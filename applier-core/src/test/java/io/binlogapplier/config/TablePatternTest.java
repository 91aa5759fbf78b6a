package io.binlogapplier.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TablePatternTest {

    @Test
    void starAndPercentMatchAnyRunAndQuestionMarkOneCharacter() {
        assertThat(TablePattern.parse("shop.*").matches("shop", "orders")).isTrue();
        assertThat(TablePattern.parse("shop.%").matches("shop", "")).isTrue();
        assertThat(TablePattern.parse("app_%.orders").matches("app_eu", "orders")).isTrue();
        assertThat(TablePattern.parse("app_%.orders").matches("app_eu", "orders2")).isFalse();
        assertThat(TablePattern.parse("*.audit_log").matches("crm", "audit_log")).isTrue();
        assertThat(TablePattern.parse("shop.t?").matches("shop", "t1")).isTrue();
        assertThat(TablePattern.parse("shop.t?").matches("shop", "t12")).isFalse();
    }

    @Test
    void underscoreIsAnOrdinaryCharacterUnlikeInReplicateWildDoTable() {
        TablePattern p = TablePattern.parse("shop.tmp_*");

        assertThat(p.matches("shop", "tmp_x")).isTrue();
        assertThat(p.matches("shop", "tmpl_x")).isFalse();
        assertThat(TablePattern.parse("a_b.t").matches("axb", "t")).isFalse();
    }

    @Test
    void namesAreComparedWithoutRegardToCaseAndOtherCharactersAreLiteral() {
        assertThat(TablePattern.parse("Shop.Orders").matches("shop", "ORDERS")).isTrue();
        assertThat(TablePattern.parse("shop$1.t-x").matches("shop$1", "t-x")).isTrue();
        assertThat(TablePattern.parse("shop$1.t-x").matches("shop$1", "t-y")).isFalse();
        assertThat(TablePattern.parse("café.*").matches("CAFÉ", "x")).isTrue();
    }

    @Test
    void schemaMatchingAndWholeSchemaPatterns() {
        assertThat(TablePattern.parse("shop.*").everyTable()).isTrue();
        assertThat(TablePattern.parse("shop.%*").everyTable()).isTrue();
        assertThat(TablePattern.parse("shop.t*").everyTable()).isFalse();
        assertThat(TablePattern.parse("sh?p.t").matchesSchema("shop")).isTrue();
        assertThat(TablePattern.parse("Shop.t").literalSchema()).isEqualTo("shop");
        assertThat(TablePattern.parse("sh*.t").literalSchema()).isNull();
    }

    @Test
    void malformedPatternsSayWhatIsWrong() {
        assertThatThrownBy(() -> TablePattern.parse("shop")).hasMessageContaining("must be schema.table");
        assertThatThrownBy(() -> TablePattern.parse("a.b.c")).hasMessageContaining("exactly one '.'");
        assertThatThrownBy(() -> TablePattern.parse(".t")).hasMessageContaining("needs a schema and a table part");
        assertThatThrownBy(() -> TablePattern.parse("shop.")).hasMessageContaining("needs a schema and a table part");
        assertThatThrownBy(() -> TablePattern.parse("`shop`.t")).hasMessageContaining("may hold only letters");
        assertThatThrownBy(() -> TablePattern.parse("shop.t x")).hasMessageContaining("may hold only letters");
        assertThatThrownBy(() -> TablePattern.parse("shop." + "t".repeat(65))).hasMessageContaining("longer than 64");
    }
}
