package io.binlogapplier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** InnoDB dictionary names ({@code schema/table}) read as table names, where that is safe. */
class DictionaryNameTest {
    @Test
    void aPlainNameSplitsAtItsSlash() {
        assertThat(TableSchemaLoader.dictionaryName("shop/Order_Items2"))
            .isEqualTo(new TableSchemaCache.TableName("shop", "Order_Items2"));
    }

    @Test
    void anEncodedOrMalformedNameIsNotReadAsATableName() {
        assertThat(TableSchemaLoader.dictionaryName("shop/odd@002dname")).as("odd-name, encoded").isNull();
        assertThat(TableSchemaLoader.dictionaryName("my@0024db/t")).as("my$db, encoded").isNull();
        assertThat(TableSchemaLoader.dictionaryName("shop/#sql-alter-1a2b-3")).isNull();
        assertThat(TableSchemaLoader.dictionaryName("shop")).isNull();
        assertThat(TableSchemaLoader.dictionaryName("/t")).isNull();
        assertThat(TableSchemaLoader.dictionaryName("shop/")).isNull();
        assertThat(TableSchemaLoader.dictionaryName("a/b/c")).isNull();
        assertThat(TableSchemaLoader.dictionaryName(null)).isNull();
    }
}
