package io.binlogapplier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.binlog.BinlogType;
import io.binlogapplier.binlog.TableMap;

import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Which columns a BINLOG statement's images keep for a target table: before images only the primary
 * key, and only where safe; after images always the generated columns and those with an ON UPDATE default.
 */
class LeanImagesTest {
    private static final ColumnInfo A = new ColumnInfo("a", 0, "int", "int", null, null, false, false);
    private static final ColumnInfo B = new ColumnInfo("b", 1, "varchar", "varchar(10)", "utf8mb4",
        "utf8mb4_general_ci", false, false);
    private static final ColumnInfo C = new ColumnInfo("c", 2, "int", "int", null, null, true, false);
    private static final ColumnInfo C_GENERATED = new ColumnInfo("c", 2, "int", "int", null, null, false, true);
    private static final ColumnInfo C_ON_UPDATE = new ColumnInfo("c", 2, "timestamp", "timestamp(6)", null, null,
        false, false, true);

    private static TableMap map(List<String> names) {
        return new TableMap(7, "db", "t", new int[] {BinlogType.LONG, BinlogType.VARCHAR, BinlogType.LONG},
            new int[] {0, 40, 0}, new int[3], new BitSet(), names, null, null);
    }

    private static TableSchema table(List<ColumnInfo> columns, List<Integer> primary, String engine) {
        List<TableSchema.KeyInfo> unique = primary.isEmpty() ? List.of()
            : List.of(new TableSchema.KeyInfo("PRIMARY", primary));
        return new TableSchema("db", "t", columns, primary, unique, primary, engine, true, false, List.of(), false);
    }

    private static BitSet bits(int... set) {
        BitSet b = new BitSet();
        for (int i : set) {
            b.set(i);
        }
        return b;
    }

    @Test
    void anInnodbPrimaryKeyIsKeptWhereverItsColumnsAre() {
        assertThat(LeanImages.keepColumns(map(null), table(List.of(A, B, C), List.of(2, 0), "InnoDB")))
            .isEqualTo(bits(0, 2));
    }

    @Test
    void aTableWithoutPrimaryKeyKeepsWholeImages() {
        // a NOT NULL unique key finds rows on the SQL path, but the server compares whole images for it
        TableSchema t = new TableSchema("db", "t", List.of(A, B, C), List.of(),
            List.of(new TableSchema.KeyInfo("u", List.of(0))), List.of(0), "InnoDB", true, false, List.of(), false);

        assertThat(LeanImages.keepColumns(map(null), t)).isNull();
    }

    @Test
    void sourceRowsWithColumnsTheTargetDoesNotShowKeepWholeImages() {
        // system versioning's hidden ROW START and ROW END, a long unique key's hash: the source's rows have
        // 3 columns here, the target shows 2; the server's key holds a hidden column
        assertThat(LeanImages.keepColumns(map(null), table(List.of(A, B), List.of(0), "InnoDB"))).isNull();
    }

    @Test
    void aSystemVersionedTableKeepsWholeImages() {
        // explicit ROW START / ROW END columns: the counts agree, but the server's primary key holds ROW END
        TableSchema versioned = new TableSchema("db", "t", List.of(A, B, C), List.of(0),
            List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), List.of(0), "InnoDB", true, false, List.of(),
            false, 1, List.of(), true, false);
        assertThat(LeanImages.keepColumns(map(null), versioned)).isNull();
    }

    @Test
    void anotherEngineKeepsWholeImages() {
        assertThat(LeanImages.keepColumns(map(null), table(List.of(A, B, C), List.of(0), "Aria"))).isNull();
    }

    @Test
    void aGeneratedKeyColumnKeepsWholeImages() {
        assertThat(LeanImages.keepColumns(map(null), table(List.of(A, B, C_GENERATED), List.of(2), "InnoDB")))
            .isNull();
    }

    @Test
    void aSourceColumnOfAnotherNameAtTheKeysPositionKeepsWholeImages() {
        // binlog_row_metadata=FULL names the source's columns: b and c are swapped there
        assertThat(LeanImages.keepColumns(map(List.of("a", "c", "b")), table(List.of(A, B, C), List.of(1),
            "InnoDB"))).isNull();
        assertThat(LeanImages.keepColumns(map(List.of("A", "c", "b")), table(List.of(A, B, C), List.of(0),
            "InnoDB"))).isEqualTo(bits(0));
    }

    @Test
    void afterImagesAlwaysKeepGeneratedColumnsAndThoseWithAnOnUpdateDefault() {
        assertThat(LeanImages.keepInAfterImages(map(null), table(List.of(A, B, C), List.of(0), "InnoDB"))).isEqualTo(new BitSet());
        assertThat(LeanImages.keepInAfterImages(map(null), table(List.of(A, B, C_GENERATED), List.of(0), "InnoDB")))
            .isEqualTo(bits(2));
        assertThat(LeanImages.keepInAfterImages(map(null), table(List.of(A, B, C_ON_UPDATE), List.of(0), "InnoDB")))
            .isEqualTo(bits(2));
    }

    @Test
    void aTargetColumnBeyondTheSourcesRowsIsNoneOfTheImages() {
        ColumnInfo d = new ColumnInfo("d", 3, "timestamp", "timestamp", null, null, false, false, true);
        assertThat(LeanImages.keepInAfterImages(map(null), table(List.of(A, B, C, d), List.of(0), "InnoDB")))
            .isEqualTo(new BitSet());
    }
}
