package io.binlogapplier.apply;

import io.binlogapplier.binlog.BinlogType;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.transaction.Change;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WriteSetsTest {
    private static final ColumnInfo ID = new ColumnInfo("id", 0, "int", "int(11)", null, null, false, false);
    private static final ColumnInfo CODE = new ColumnInfo("code", 1, "varchar", "varchar(10)", "utf8mb4",
        "utf8mb4_general_ci", true, false);
    private static final TableSchema T = new TableSchema("db", "t", List.of(ID, CODE), List.of(0),
        List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0)), new TableSchema.KeyInfo("u_code", List.of(1))),
        List.of(0), "InnoDB", true, false, List.of(), false);
    private static final TableMap MAP = new TableMap(7, "db", "t", new int[] {BinlogType.LONG, BinlogType.VARCHAR},
        new int[] {0, 40}, new int[] {0, 0}, new BitSet(), null, null, null);

    /** A child of {@code T}: its {@code t_id} references {@code T.id}. */
    private static final TableSchema CHILD = new TableSchema("db", "child", List.of(ID,
        new ColumnInfo("t_id", 1, "int", "int(11)", null, null, true, false)), List.of(0),
        List.of(new TableSchema.KeyInfo("PRIMARY", List.of(0))), List.of(0), "InnoDB", true, false,
        List.of(new TableSchema.ForeignKey("fk", List.of(1), "db", "t", List.of("id"))), false);
    private static final TableMap CHILD_MAP = new TableMap(8, "db", "child", new int[] {BinlogType.LONG,
        BinlogType.LONG}, new int[] {0, 0}, new int[] {0, 0}, new BitSet(), null, null, null);

    private static long[] insert(Object[]... rows) {
        BitSet all = new BitSet();
        all.set(0, 2);
        Change.Rows r = new Change.Rows(MAP, RowsKind.INSERT, 0, all, all, List.of(rows), 10, null, null);
        return WriteSets.of(List.of(r), x -> T);
    }

    private static byte[] s(String v) {
        return v.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theSameKeyValueHashesAlikeAndDifferentOnesApart() {
        long[] a = insert(new Object[] {1L, s("x")});
        long[] b = insert(new Object[] {1L, s("y")});
        long[] c = insert(new Object[] {2L, s("z")});

        assertThat(a).hasSize(2);
        assertThat(a).containsAnyOf(b);
        assertThat(a).doesNotContain(c[0], c[1]);
    }

    @Test
    void caseAccentAndTrailingSpaceVariantsConflictUnderAnInsensitiveCollation() {
        long[] a = insert(new Object[] {1L, s("Café")});
        long[] b = insert(new Object[] {2L, s("cafe  ")});
        assertThat(a).containsAnyOf(b);
    }

    @Test
    void aChildRowConflictsWithItsParentRowThroughTheForeignKey() {
        BitSet all = new BitSet();
        all.set(0, 2);
        long[] childInsert = WriteSets.of(List.of(new Change.Rows(CHILD_MAP, RowsKind.INSERT, 0, all, all,
            List.<Object[]>of(new Object[] {100L, 1L}), 10, null, null)), x -> CHILD);
        long[] parentDelete = insert(new Object[] {1L, s("x")});
        long[] otherParent = insert(new Object[] {2L, s("y")});

        assertThat(childInsert).containsAnyOf(parentDelete);
        assertThat(childInsert).doesNotContain(otherParent);
    }

    @Test
    void aChildImageWritesItsOwnKeyAndReadsThePrimaryKeyOfItsParent() {
        BitSet all = new BitSet();
        all.set(0, 2);
        WriteSets.Keys childKeys = new WriteSets.Keys(CHILD_MAP, CHILD);
        WriteSets.Keys parentKeys = new WriteSets.Keys(MAP, T);
        long[] out = new long[8];

        assertThat(childKeys.count()).isEqualTo(2);
        int own = childKeys.addUnique(new Object[] {100L, 1L}, all, out, 0);
        long[] written = java.util.Arrays.copyOf(out, own);
        int read = childKeys.addReferenced(new Object[] {100L, 1L}, all, out, 0);
        long[] referenced = java.util.Arrays.copyOf(out, read);
        int parent = parentKeys.addUnique(new Object[] {1L, s("x")}, all, out, 0);
        long[] parentWritten = java.util.Arrays.copyOf(out, parent);

        assertThat(written).hasSize(1).doesNotContain(parentWritten);
        assertThat(referenced).hasSize(1);
        assertThat(parentWritten).hasSize(2).contains(referenced[0]);
        assertThat(parentKeys.addReferenced(new Object[] {1L, s("x")}, all, out, 0)).as("the parent references none")
            .isZero();
        BitSet idOnly = new BitSet();
        idOnly.set(0);
        assertThat(childKeys.addReferenced(new Object[] {100L, null}, idOnly, out, 0))
            .as("no key from a column the image lacks").isZero();
    }

    @Test
    void aNullUniqueValueIsNoKey() {
        assertThat(insert(new Object[] {1L, null})).hasSize(1);
    }

    @Test
    void aTableWithoutAKeyConflictsWithEveryChangeToItselfAndNothingElse() {
        TableSchema keyless = new TableSchema("db", "log", List.of(ID, CODE), List.of(), List.of(), List.of(),
            "InnoDB", true, false, List.of(), false);
        TableMap logMap = new TableMap(9, "db", "log", new int[] {BinlogType.LONG, BinlogType.VARCHAR},
            new int[] {0, 40}, new int[] {0, 0}, new BitSet(), null, null, null);
        BitSet all = new BitSet();
        all.set(0, 2);
        long[] a = WriteSets.of(List.of(new Change.Rows(logMap, RowsKind.INSERT, 0, all, all,
            List.<Object[]>of(new Object[] {1L, s("x")}), 10, null, null)), x -> keyless);
        long[] b = WriteSets.of(List.of(new Change.Rows(logMap, RowsKind.DELETE, 0, all, all,
            List.<Object[]>of(new Object[] {2L, s("y")}), 10, null, null)), x -> keyless);
        long[] other = insert(new Object[] {1L, s("x")});

        assertThat(a).containsExactly(WriteSets.tableKey("db", "log"));
        assertThat(b).containsExactly(WriteSets.tableKey("db", "log"));
        assertThat(other).doesNotContain(WriteSets.tableKey("db", "log"), WriteSets.tableKey("db", "t"));
    }
}
