package io.binlogapplier.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.binlogapplier.apply.TableSchemaLoader.KeyPart;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Key selection from {@code information_schema.STATISTICS} rows. MySQL 8.0.13+ reports a functional
 * key part ({@code UNIQUE KEY u_email ((lower(email)))}) with {@code COLUMN_NAME} NULL and the
 * expression in {@code EXPRESSION}; MariaDB has no functional indexes, so these rows are given as
 * values (issue 17, defect 5).
 */
class TableSchemaKeysTest {
    private static final List<ColumnInfo> COLUMNS = List.of(
        new ColumnInfo("id", 0, "int", "int", null, null, false, false),
        new ColumnInfo("email", 1, "varchar", "varchar(100)", "utf8mb4", "utf8mb4_0900_ai_ci", false, false),
        new ColumnInfo("code", 2, "int", "int", null, null, false, false));

    @Test
    void aFunctionalUniqueKeyIsSkippedNotAnNpe() {
        // CREATE TABLE t (id INT, email VARCHAR(100) NOT NULL, code INT NOT NULL,
        //   UNIQUE KEY u_email ((lower(email))), UNIQUE KEY u_code (code)) -- no primary key
        var keys = TableSchemaLoader.keys(List.of(
            new KeyPart("u_code", true, "code", false),
            new KeyPart("u_email", true, null, false)), COLUMNS);
        assertEquals(List.of(new TableSchema.KeyInfo("u_code", List.of(2))), keys.unique());
        assertEquals(List.of(2), keys.lookup());
        assertEquals(List.of(), keys.primary());
    }

    @Test
    void aKeyMixingAColumnAndAnExpressionIsNotUsable() {
        // UNIQUE KEY u_mix (id, (lower(email))) must not become the lookup key (id alone is not unique)
        var keys = TableSchemaLoader.keys(List.of(
            new KeyPart("u_mix", true, "id", false),
            new KeyPart("u_mix", true, null, false)), COLUMNS);
        assertEquals(List.of(), keys.unique());
        assertEquals(List.of(), keys.lookup());
    }

    @Test
    void primaryAndPrefixKeysAsBefore() {
        var keys = TableSchemaLoader.keys(List.of(
            new KeyPart("PRIMARY", true, "id", false),
            new KeyPart("u_email", true, "email", true),
            new KeyPart("k_code", false, null, false)), COLUMNS);
        assertEquals(List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), keys.unique());
        assertEquals(List.of(0), keys.primary());
        assertEquals(List.of(0), keys.lookup());
    }

    @Test
    void everyEnforcedUniqueIndexIsCountedUsableOrNotOnceEach() {
        // PRIMARY KEY (id), UNIQUE KEY u_email (email(10)), UNIQUE KEY u_lower ((lower(email))),
        // UNIQUE KEY u_pair (id, code), KEY k_code (code)
        int count = TableSchemaLoader.uniqueIndexCount(List.of(
            new KeyPart("PRIMARY", true, "id", false),
            new KeyPart("u_email", true, "email", true),
            new KeyPart("u_lower", true, null, false),
            new KeyPart("u_pair", true, "id", false),
            new KeyPart("u_pair", true, "code", false),
            new KeyPart("k_code", false, "code", false)));
        assertEquals(4, count);
        assertEquals(1, TableSchemaLoader.uniqueIndexCount(List.of(new KeyPart("PRIMARY", true, "id", false),
            new KeyPart("k_code", false, "code", false))));
    }

    @Test
    void readAheadIndexesAreEveryWholeColumnBtreeIndexPrimaryFirst() {
        // PRIMARY KEY (id), UNIQUE KEY u_email (email(10)), KEY k_pair (code, id), KEY k_lower ((lower(email))),
        // FULLTEXT KEY ft (email), KEY k_code (code)
        var indexes = TableSchemaLoader.indexes(List.of(
            new KeyPart("PRIMARY", true, "id", false),
            new KeyPart("ft", false, "email", false, false),
            new KeyPart("k_code", false, "code", false),
            new KeyPart("k_lower", false, null, false),
            new KeyPart("k_pair", false, "code", false),
            new KeyPart("k_pair", false, "id", false),
            new KeyPart("u_email", true, "email", true)), COLUMNS);
        assertEquals(List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0)), new TableSchema.KeyInfo("k_code", List.of(2)),
            new TableSchema.KeyInfo("k_pair", List.of(2, 0))), indexes);
    }
}
