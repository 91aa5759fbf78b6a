package io.binlogapplier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.binlog.BinlogType;
import io.binlogapplier.binlog.JsonText;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.transaction.Change;

import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Which rows go to a MySQL target as a BINLOG statement because of typed JSON (issue 17, #2). */
class OpaqueJsonRoutingTest {
    private static final TableMap DOCS = map(BinlogType.JSON);

    private static TableMap map(int secondType) {
        return new TableMap(1, "db", "docs", new int[] {BinlogType.LONGLONG, secondType}, new int[] {0, 4},
            new int[] {0, 0}, new BitSet(), null, null, null);
    }

    private static Change.Rows rows(Object[]... images) {
        return rows(DOCS, List.of(images));
    }

    private static Change.Rows rows(TableMap map, List<Object[]> images) {
        BitSet all = new BitSet();
        all.set(0, 2);
        return new Change.Rows(map, RowsKind.UPDATE, 0, all, all, images, 100, null, null);
    }

    @Test
    void rowsWithAnOpaqueJsonCellInAnyImageAreRoutedToBinlog() {
        assertThat(TransactionApplier.opaqueJson(rows(new Object[] {1L, new JsonText("{\"p\": 1.5}")},
            new Object[] {1L, new JsonText("{\"p\": 1.50}", true)}))).isTrue();
    }

    @Test
    void rowsWithPlainJsonOrNoJsonAreNot() {
        assertThat(TransactionApplier.opaqueJson(rows(new Object[] {1L, new JsonText("{\"p\": 1.5}")},
            new Object[] {1L, null}))).isFalse();
    }

    @Test
    void aTableWithoutAJsonColumnIsAnsweredWithoutReadingItsRows() {
        List<Object[]> unread = new java.util.AbstractList<>() {
            @Override
            public Object[] get(int index) {
                throw new AssertionError("the rows were read");
            }

            @Override
            public int size() {
                return 2;
            }
        };
        assertThat(TransactionApplier.opaqueJson(rows(map(BinlogType.BLOB), unread))).isFalse();
    }
}
