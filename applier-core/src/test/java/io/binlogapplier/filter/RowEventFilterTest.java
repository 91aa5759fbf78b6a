package io.binlogapplier.filter;

import io.binlogapplier.binlog.BinlogEvent;
import io.binlogapplier.binlog.EventConverter;
import io.binlogapplier.binlog.EventEncoder;
import io.binlogapplier.binlog.EventHeader;
import io.binlogapplier.binlog.HexFixtures;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The row stage: what reaches the transaction assembler. */
class RowEventFilterTest {
    private static final EventHeader H = new EventHeader(1, 0, 1, 0, 100, 0);

    private final List<BinlogEvent> out = new ArrayList<>();

    private RowEventFilter stage(List<String> exclude, Map<String, String> rename) {
        return new RowEventFilter(ReplicationFilterTest.filter(List.of(), exclude, rename), out::add);
    }

    private static BinlogEvent.TableMapped map(long id, String schema, String table) {
        return new BinlogEvent.TableMapped(H, new TableMap(id, schema, table, new int[] {3}, new int[] {0},
            new int[] {0}, new BitSet(), null, null, null));
    }

    /** A rows event whose raw body is the people DELETE fixture's with this id and flags. */
    private static BinlogEvent.Rows rows(long id, boolean statementEnd) {
        byte[] event = HexFixtures.load("mariadb_delete_rows_v1_nulls");
        byte[] body = Arrays.copyOfRange(event, EventEncoder.HEADER_LENGTH, event.length);
        body[0] = (byte) id;
        body[6] = (byte) (statementEnd ? 1 : 0);
        return new BinlogEvent.Rows(H, RowsKind.DELETE, id, statementEnd ? 1 : 0, new BitSet(), new BitSet(),
            List.of(), body.length, body);
    }

    private static BinlogEvent xid() {
        return new BinlogEvent.Xid(H, 9);
    }

    private void feed(RowEventFilter f, BinlogEvent... events) throws InterruptedException {
        for (BinlogEvent e : events) {
            f.accept(e);
        }
    }

    @Test
    void rowsOfExcludedTablesAreDroppedWithTheirTableMaps() throws InterruptedException {
        RowEventFilter f = stage(List.of("shop.tmp_*"), Map.of());
        BinlogEvent keptMap = map(1, "shop", "orders");
        BinlogEvent keptRows = rows(1, true);
        BinlogEvent end = xid();

        feed(f, map(2, "shop", "tmp_x"), rows(2, true), keptMap, keptRows, end);

        assertThat(out).containsExactly(keptMap, keptRows, end);
    }

    @Test
    void aTransactionOfExcludedRowsOnlyStillEnds() throws InterruptedException {
        RowEventFilter f = stage(List.of("shop.tmp_*"), Map.of());
        BinlogEvent end = xid();

        feed(f, map(2, "shop", "tmp_x"), rows(2, false), rows(2, true), end);

        assertThat(out).containsExactly(end);
    }

    @Test
    void whenTheStatementsLastRowsEventIsDroppedTheLastKeptOneEndsTheStatement() throws InterruptedException {
        // UPDATE shop.orders fires a trigger that writes crm.audit_log: the audit rows end the statement.
        RowEventFilter f = stage(List.of("*.audit_log"), Map.of());
        BinlogEvent.TableMapped orders = map(1, "shop", "orders");
        BinlogEvent.Rows first = rows(1, false);
        BinlogEvent end = xid();

        feed(f, orders, map(2, "crm", "audit_log"), first, rows(2, false), rows(2, true), end);

        assertThat(out).hasSize(3);
        assertThat(out.get(0)).isSameAs(orders);
        BinlogEvent.Rows ended = (BinlogEvent.Rows) out.get(1);
        assertThat(ended.flags() & BinlogEvent.Rows.FLAG_STMT_END).isEqualTo(1);
        assertThat(ended.body()[6]).as("the raw body carries the flag too, for BINLOG statements").isEqualTo((byte) 1);
        assertThat(Arrays.copyOfRange(ended.body(), 7, ended.body().length))
            .isEqualTo(Arrays.copyOfRange(first.body(), 7, first.body().length));
        assertThat(first.body()[6]).as("the event as received is left alone").isZero();
        assertThat(out.get(2)).isSameAs(end);
    }

    @Test
    void aKeptStatementEndIsPassedOnAsItIs() throws InterruptedException {
        RowEventFilter f = stage(List.of("*.audit_log"), Map.of());
        BinlogEvent.Rows a = rows(1, false);
        BinlogEvent.Rows b = rows(1, true);

        feed(f, map(1, "shop", "orders"), map(2, "crm", "audit_log"), rows(2, false), a, b, xid());

        assertThat(out.get(1)).isSameAs(a);
        assertThat(out.get(2)).isSameAs(b);
    }

    @Test
    void renamedSchemasReachTheAssemblerInTableMapAndRawBody() throws InterruptedException {
        RowEventFilter f = stage(List.of(), Map.of("test", "shop_replica"));
        BinlogEvent people = new EventConverter(true).convert(HexFixtures.load("mariadb_table_map_people"));
        byte[] expected = HexFixtures.load("mariadb_table_map_people_in_shop_replica");

        feed(f, people, map(7, "crm", "x"));

        TableMap renamed = ((BinlogEvent.TableMapped) out.get(0)).map();
        assertThat(renamed.schema()).isEqualTo("shop_replica");
        assertThat(renamed.table()).isEqualTo("people");
        assertThat(renamed.body()).isEqualTo(Arrays.copyOfRange(expected, EventEncoder.HEADER_LENGTH, expected.length));
        assertThat(((BinlogEvent.TableMapped) out.get(1)).map().schema()).isEqualTo("crm");
    }

    @Test
    void eventsInsideACompressedPayloadAreFilteredAsOneStream() throws InterruptedException {
        RowEventFilter f = stage(List.of("shop.tmp_*"), Map.of());
        BinlogEvent keptMap = map(1, "shop", "orders");
        BinlogEvent keptRows = rows(1, true);
        BinlogEvent end = xid();

        feed(f, new BinlogEvent.Payload(H, List.of(map(2, "shop", "tmp_x"), rows(2, true), keptMap, keptRows, end)));

        assertThat(out).hasSize(1);
        assertThat(((BinlogEvent.Payload) out.get(0)).events()).containsExactly(keptMap, keptRows, end);
    }

    @Test
    void aTableIdMappedAgainToAnIncludedTableIsNoLongerDropped() throws InterruptedException {
        RowEventFilter f = stage(List.of("shop.tmp_*"), Map.of());
        BinlogEvent.Rows later = rows(2, true);

        feed(f, map(2, "shop", "tmp_x"), rows(2, true), xid(), map(2, "shop", "orders"), later, xid());

        assertThat(out).contains(later);
    }
}
