package io.binlogapplier.apply;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RowSqlTest {
    private static final ColumnInfo ID = new ColumnInfo("id", 0, "int", "int(11)", null, null, false, false);
    private static final ColumnInfo NAME = new ColumnInfo("na`me", 1, "varchar", "varchar(10)", "utf8mb4",
        "utf8mb4_general_ci", true, false);
    private static final ColumnInfo F = new ColumnInfo("f", 2, "float", "float", null, null, true, false);
    private static final TableSchema T = new TableSchema("db", "t", List.of(ID, NAME, F), List.of(0),
        List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), List.of(0), "InnoDB", true, false, List.of(), false);

    @Test
    void insertsSeveralRowsInOneStatement() {
        assertThat(RowSql.insert(T, List.of(ID, NAME), 2, false))
            .isEqualTo("INSERT INTO `db`.`t` (`id`,`na``me`) VALUES (?,?),(?,?)");
        assertThat(RowSql.insert(T, List.of(ID), 1, true)).isEqualTo("REPLACE INTO `db`.`t` (`id`) VALUES (?)");
    }

    @Test
    void aBitValueIsFoundByTheIntegerItsBytesSpellAndMatchedAsBytesWithoutAKey() {
        ColumnInfo bits = new ColumnInfo("b", 0, "bit", "bit(10)", null, null, false, false);
        TableSchema t = new TableSchema("db", "t", List.of(bits), List.of(0),
            List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), List.of(0), "InnoDB", true, false, List.of(), false);
        assertThat(RowSql.delete(t, List.of(bits), true))
            .isEqualTo("DELETE FROM `db`.`t` WHERE `b`=CAST(CONV(HEX(?), 16, 10) AS UNSIGNED)");
        assertThat(RowSql.delete(t, List.of(bits), false))
            .isEqualTo("DELETE FROM `db`.`t` WHERE CAST(`b` AS BINARY)<=>? LIMIT 1");
    }

    /** The binlog drops a BINARY value's trailing 0x00 bytes; found by key or by value, it is padded again. */
    @Test
    void aBinaryValueIsPaddedToTheColumnsLengthWhereverItIsLookedFor() {
        ColumnInfo k = new ColumnInfo("k", 0, "binary", "binary(16)", null, null, false, false);
        ColumnInfo one = new ColumnInfo("o", 1, "binary", "binary", null, null, true, false);
        TableSchema t = new TableSchema("db", "t", List.of(k, one), List.of(0),
            List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), List.of(0), "InnoDB", true, false, List.of(), false);
        assertThat(RowSql.delete(t, List.of(k), true)).isEqualTo("DELETE FROM `db`.`t` WHERE `k`=CAST(? AS BINARY(16))");
        assertThat(RowSql.delete(t, List.of(k, one), false))
            .isEqualTo("DELETE FROM `db`.`t` WHERE `k`<=>CAST(? AS BINARY(16)) AND `o`<=>CAST(? AS BINARY(1)) LIMIT 1");
        assertThat(new ColumnInfo("v", 0, "varbinary", "varbinary(16)", null, null, false, false).binaryLength()).isZero();
    }

    @Test
    void anUpsertUpdatesEveryColumnButTheKeyInPlace() {
        assertThat(RowSql.upsert(T, List.of(ID, NAME, F), List.of(NAME, F), 2)).isEqualTo("INSERT INTO `db`.`t`"
            + " (`id`,`na``me`,`f`) VALUES (?,?,?),(?,?,?) ON DUPLICATE KEY UPDATE `na``me`=VALUES(`na``me`),"
            + "`f`=VALUES(`f`)");
    }

    @Test
    void onlyATableWhoseLookupKeyIsItsOnlyUniqueIndexIsUpdatedInPlace() {
        assertThat(T.lookupKeyIsTheOnlyUniqueKey()).isTrue();
        TableSchema prefixUnique = new TableSchema("db", "t", List.of(ID, NAME, F), List.of(0),
            List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), List.of(0), "InnoDB", true, false, List.of(),
            false, 2); // UNIQUE KEY (name(3)): not a usable key, still enforced
        assertThat(prefixUnique.lookupKeyIsTheOnlyUniqueKey()).isFalse();
        TableSchema keyless = new TableSchema("db", "t", List.of(ID, NAME, F), List.of(), List.of(), List.of(),
            "InnoDB", true, false, List.of(), false, 0);
        assertThat(keyless.lookupKeyIsTheOnlyUniqueKey()).isFalse();
    }

    @Test
    void updatesAndDeletesFindTheRowByKey() {
        assertThat(RowSql.update(T, List.of(ID, NAME, F), List.of(ID), true))
            .isEqualTo("UPDATE `db`.`t` SET `id`=?,`na``me`=?,`f`=? WHERE `id`=?");
        assertThat(RowSql.delete(T, List.of(ID), true)).isEqualTo("DELETE FROM `db`.`t` WHERE `id`=?");
    }

    @Test
    void withoutAKeyTheWholeImageMatchesNullSafelyAndTextAsBytesOneRowAtATime() {
        assertThat(RowSql.delete(T, List.of(ID, NAME, F), false)).isEqualTo(
            "DELETE FROM `db`.`t` WHERE `id`<=>? AND CAST(`na``me` AS BINARY)<=>? AND `f`<=>? LIMIT 1");
    }

    @Test
    void theNetEffectDeletesManyRowsByKeyInOneStatement() {
        assertThat(RowSql.deleteByKeys(T, List.of(ID), 3)).isEqualTo("DELETE FROM `db`.`t` WHERE `id` IN (?,?,?)");
        assertThat(RowSql.deleteSome(T, List.of(ID, NAME)))
            .isEqualTo("DELETE FROM `db`.`t` WHERE `id`<=>? AND CAST(`na``me` AS BINARY)<=>? LIMIT ?");
        assertThat(RowSql.countCopies(T, List.of(ID, NAME), 2, false)).isEqualTo("SELECT CASE WHEN (`id`<=>? AND"
            + " CAST(`na``me` AS BINARY)<=>?) THEN 0 WHEN (`id`<=>? AND CAST(`na``me` AS BINARY)<=>?) THEN 1 END,"
            + " COUNT(*) FROM `db`.`t` WHERE (`id`,CAST(`na``me` AS BINARY)) IN ((?,?),(?,?)) GROUP BY 1 ORDER BY NULL FOR UPDATE");
        assertThat(RowSql.countCopies(T, List.of(ID), 2, true)).isEqualTo("SELECT CASE WHEN (`id`<=>?) THEN 0"
            + " WHEN (`id`<=>?) THEN 1 END, COUNT(*) FROM `db`.`t` WHERE (`id`<=>?) OR (`id`<=>?) GROUP BY 1 ORDER BY NULL FOR UPDATE");
        assertThat(RowSql.deleteAllCopies(T, List.of(ID), 2, true))
            .isEqualTo("DELETE FROM `db`.`t` WHERE (`id`<=>?) OR (`id`<=>?)");
        assertThat(RowSql.deleteAllCopies(T, List.of(ID), 2, false))
            .isEqualTo("DELETE FROM `db`.`t` WHERE `id` IN (?,?)");
        assertThat(RowSql.deleteAllCopies(T, List.of(ID, NAME, F), 2, false))
            .isEqualTo("DELETE FROM `db`.`t` WHERE (`id`,CAST(`na``me` AS BINARY),`f`) IN ((?,?,?),(?,?,?))");
        // one value: no one-row IN list, which MariaDB finds by a full scan
        assertThat(RowSql.deleteAllCopies(T, List.of(ID, NAME), 1, false))
            .isEqualTo("DELETE FROM `db`.`t` WHERE (`id`<=>? AND CAST(`na``me` AS BINARY)<=>?)");
        assertThat(RowSql.deleteByKeys(T, List.of(ID, NAME), 2))
            .isEqualTo("DELETE FROM `db`.`t` WHERE (`id`=? AND `na``me`=?) OR (`id`=? AND `na``me`=?)");
    }

    @Test
    void readAheadReadsOneIndexByItsValuesAndNothingElse() {
        assertThat(RowSql.probe(T, "PRIMARY", List.of(ID), 2))
            .isEqualTo("SELECT COUNT(*) FROM `db`.`t` FORCE INDEX (PRIMARY) WHERE `id` IN (?,?)");
        assertThat(RowSql.probe(T, "k`x", List.of(F, ID), 2)).isEqualTo("SELECT COUNT(*) FROM `db`.`t` FORCE INDEX"
            + " (`k``x`) WHERE (`f`=? AND `id`=?) OR (`f`=? AND `id`=?)");
    }

    @Test
    void tablesThatFireCascadesOrTriggersOrCannotRollBackAreAppliedInOrder() {
        assertThat(T.orderedApplyReason()).isNull();
        // a keyless InnoDB table takes the net effect per distinct row value (KeylessNetEffect)
        assertThat(new TableSchema("db", "t", List.of(ID), List.of(), List.of(), List.of(), "InnoDB", true, false,
            List.of(), false).orderedApplyReason()).isNull();
        assertThat(new TableSchema("db", "t", List.of(ID), List.of(0), List.of(), List.of(0), "MyISAM", false, false,
            List.of(), false).orderedApplyReason()).contains("non-transactional");
        assertThat(new TableSchema("db", "t", List.of(ID), List.of(0), List.of(), List.of(0), "InnoDB", true, true,
            List.of(), false).orderedApplyReason()).contains("triggers");
        assertThat(new TableSchema("db", "t", List.of(ID), List.of(0), List.of(), List.of(0), "InnoDB", true, false,
            List.of(new TableSchema.ForeignKey("fk", List.of(0), "db", "p", List.of("id"))), false)
            .orderedApplyReason()).contains("child");
        assertThat(new TableSchema("db", "t", List.of(ID), List.of(0), List.of(), List.of(0), "InnoDB", true, false,
            List.of(), true).orderedApplyReason()).contains("parent");
    }
}
