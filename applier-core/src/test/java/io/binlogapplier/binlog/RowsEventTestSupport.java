package io.binlogapplier.binlog;

/** Decodes a rows fixture after its TABLE_MAP fixture, on one converter as on a stream. */
final class RowsEventTestSupport {
    private RowsEventTestSupport() {
    }

    static BinlogEvent.Rows rows(String tableMapFixture, String rowsFixture) {
        EventConverter c = new EventConverter();
        c.convert(HexFixtures.load(tableMapFixture));
        return (BinlogEvent.Rows) c.convert(HexFixtures.load(rowsFixture));
    }
}
