package io.binlogapplier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.binlog.JsonText;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.transaction.Change;

import java.util.BitSet;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Which rows go to a MySQL target as a BINLOG statement because of typed JSON (issue 17, #2). */
class OpaqueJsonRoutingTest {
    private static Change.Rows rows(Object[]... images) {
        BitSet all = new BitSet();
        all.set(0, 2);
        return new Change.Rows(null, RowsKind.UPDATE, 0, all, all, List.of(images), 100, null, null);
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
}
