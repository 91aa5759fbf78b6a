package io.binlogapplier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.binlog.BinlogType;
import io.binlogapplier.binlog.TableMap;

import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Whether a BINLOG statement, which the target applies by column position, puts each value in its own column. */
class ColumnMappingTest {
    private static final ColumnInfo A = new ColumnInfo("a", 0, "int", "int", null, null, false, false);
    private static final ColumnInfo B = new ColumnInfo("b", 1, "int", "int", null, null, false, false);
    private static final ColumnInfo C = new ColumnInfo("c", 2, "int", "int", null, null, false, false);

    private static TableMap map(List<String> names, int columns) {
        int[] types = new int[columns];
        java.util.Arrays.fill(types, BinlogType.LONG);
        return new TableMap(7, "db", "t", types, new int[columns], new int[columns], new BitSet(), names, null, null);
    }

    private static TableSchema table(ColumnInfo... columns) {
        return new TableSchema("db", "t", List.of(columns), List.of(0), List.of(new TableSchema.KeyInfo("PRIMARY",
            List.of(0))), List.of(0), "InnoDB", true, false, List.of(), false);
    }

    @Test
    void withoutNamesPositionIsAllThereIs() {
        assertThat(ColumnMapping.positional(map(null, 3), table(A, B, C))).isTrue();
    }

    @Test
    void namesInTheTargetsOrderWhateverTheirCaseArePositional() {
        assertThat(ColumnMapping.positional(map(List.of("a", "B", "c"), 3), table(A, B, C))).isTrue();
    }

    @Test
    void extraTargetColumnsAfterTheSourcesArePositional() {
        assertThat(ColumnMapping.positional(map(List.of("a", "b"), 2), table(A, B, C))).isTrue();
    }

    @Test
    void swappedColumnsAreNot() {
        assertThat(ColumnMapping.positional(map(List.of("a", "c", "b"), 3), table(A, B, C))).isFalse();
        assertThat(ColumnMapping.of(map(List.of("a", "c", "b"), 3), table(A, B, C))).containsExactly(0, 2, 1);
    }

    @Test
    void moreSourceColumnsThanTheTargetHasAreNot() {
        assertThat(ColumnMapping.positional(map(List.of("a", "b", "c"), 3), table(A, B))).isFalse();
    }
}
