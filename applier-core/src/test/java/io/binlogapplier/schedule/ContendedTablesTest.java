package io.binlogapplier.schedule;

import io.binlogapplier.apply.WriteSets;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ContendedTablesTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aTableBecomesContendedAtItsThirdConflictWithinTheWindow() {
        ContendedTables t = new ContendedTables(WriteSets::tableKey);
        long key = WriteSets.tableKey("shop", "accounts");

        assertThat(t.conflict("`shop`.`accounts`", 0)).isEmpty();
        assertThat(t.conflict("`shop`.`accounts`", 10 * S)).isEmpty();
        assertThat(t.keys()).isEmpty();
        assertThat(t.conflict("`shop`.`accounts`", 20 * S))
            .contains(new ContendedTables.Name("shop", "accounts"));

        assertThat(t.keys()).containsExactly(key);
        assertThat(t.contended(key)).isTrue();
        assertThat(t.contended(WriteSets.tableKey("shop", "orders"))).isFalse();
        assertThat(t.conflict("`shop`.`accounts`", 21 * S)).as("reported once").isEmpty();
        assertThat(t.keys()).containsExactly(key);
    }

    @Test
    void aContendedTableIsReleasedAfterTheHoldAndTakenAgainByThreeMoreConflicts() {
        ContendedTables t = new ContendedTables(WriteSets::tableKey);
        long key = WriteSets.tableKey("a", "t");
        t.conflict("`a`.`t`", 0);
        t.conflict("`a`.`t`", S);
        t.conflict("`a`.`t`", 2 * S);
        t.conflict("`a`.`u`", 2 * S);
        t.conflict("`a`.`u`", 3 * S);
        t.conflict("`a`.`u`", 4 * S);
        long held = 2 * S;

        assertThat(t.release(held + ContendedTables.HOLD_NANOS - 1)).isEmpty();
        assertThat(t.contended(key)).isTrue();
        assertThat(t.release(held + ContendedTables.HOLD_NANOS)).containsExactly(new ContendedTables.Name("a", "t"));
        assertThat(t.contended(key)).isFalse();
        assertThat(t.keys()).as("`a`.`u` became contended later").containsExactly(WriteSets.tableKey("a", "u"));

        long later = held + ContendedTables.HOLD_NANOS;
        assertThat(t.conflict("`a`.`t`", later)).as("counting starts again").isEmpty();
        assertThat(t.conflict("`a`.`t`", later + S)).isEmpty();
        assertThat(t.conflict("`a`.`t`", later + 2 * S)).isPresent();
        assertThat(t.contended(key)).isTrue();
    }

    @Test
    void conflictsOlderThanTheWindowDoNotCount() {
        ContendedTables t = new ContendedTables(WriteSets::tableKey);

        t.conflict("`a`.`t`", 0);
        t.conflict("`a`.`t`", 30 * S);
        assertThat(t.conflict("`a`.`t`", 61 * S)).as("the first is 61 s old").isEmpty();
        assertThat(t.conflict("`a`.`t`", 89 * S)).as("30, 61 and 89 s").isPresent();
    }

    @Test
    void eachTableCountsItsOwnConflictsWhateverTheCaseOfItsName() {
        ContendedTables t = new ContendedTables(WriteSets::tableKey);

        t.conflict("`a`.`t`", 0);
        t.conflict("`a`.`u`", 0);
        t.conflict("`A`.`T`", S);
        assertThat(t.conflict("`a`.`u`", S)).isEmpty();
        assertThat(t.conflict("`a`.`T`", 2 * S)).isPresent();
        assertThat(t.contended(WriteSets.tableKey("a", "t"))).isTrue();
        assertThat(t.contended(WriteSets.tableKey("a", "u"))).isFalse();
    }

    @Test
    void namesThatAreNotASchemaAndATableCountForNothing() {
        ContendedTables t = new ContendedTables(WriteSets::tableKey);
        for (int i = 0; i < 5; i++) {
            assertThat(t.conflict(null, i)).isEmpty();
            assertThat(t.conflict("accounts", i)).isEmpty();
            assertThat(t.conflict("`shop`", i)).isEmpty();
            assertThat(t.conflict("`shop`.", i)).isEmpty();
            assertThat(t.conflict("``.`t`", i)).isEmpty();
        }
        assertThat(t.keys()).isEmpty();
    }

    @Test
    void parsesQuotedNamesWithDoubledBackticksAndIgnoresAPartition() {
        assertThat(ContendedTables.parse("`db`.`t`")).contains(new ContendedTables.Name("db", "t"));
        assertThat(ContendedTables.parse("`my``db`.`a.b`")).contains(new ContendedTables.Name("my`db", "a.b"));
        assertThat(ContendedTables.parse("`db`.`t` /* Partition `p1` */"))
            .contains(new ContendedTables.Name("db", "t"));
        assertThat(ContendedTables.parse("`db`.`t")).isEqualTo(Optional.empty());
        assertThat(new ContendedTables.Name("my`db", "t").toString()).isEqualTo("`my``db`.`t`");
    }
}
