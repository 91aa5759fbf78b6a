package io.binlogapplier.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.binlog.BinlogEvent;
import io.binlogapplier.binlog.EventConverter;
import io.binlogapplier.binlog.HexFixtures;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourceGtid;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/**
 * {@link TransactionAssembler} fed events decoded from the byte fixtures, in stream order: what a
 * transaction keeps of its GTID event (logical clock, commit id, commit time) and where it ends.
 */
class TransactionAssemblerFixtureTest {
    private static final String MYSQL_FILE = "binlog.000042";
    private static final String MARIADB_FILE = "mariadb-bin.000007";
    private static final UUID SID = UUID.fromString("3e11fa47-71ca-11e1-9e33-c80aa9429562");

    private final List<Transaction> transactions = new ArrayList<>();

    /** Converts the fixtures in order on one converter and feeds them to a fresh assembler. */
    private List<Transaction> assemble(String file, String... fixtures) throws InterruptedException {
        EventConverter converter = new EventConverter();
        TransactionAssembler assembler = new TransactionAssembler(file, Long.MAX_VALUE, new TransactionAssembler.Sink() {
            @Override
            public void transaction(Transaction part) {
                transactions.add(part);
            }

            @Override
            public void heartbeat(BinlogCoordinates position, long timestampSeconds) {
            }
        });
        for (String fixture : fixtures) {
            assembler.accept(converter.convert(HexFixtures.load(fixture)));
        }
        assertThat(assembler.idle()).as("assembler idle after the last fixture").isTrue();
        return transactions;
    }

    private static long nextPosition(String fixture) {
        return HexFixtures.event(fixture).header().nextPosition();
    }

    private static Change.Rows onlyRowsChange(Transaction t) {
        assertThat(t.changes()).hasSize(1);
        return (Change.Rows) t.changes().get(0);
    }

    @Test
    void mysqlGtidBeginRowsXidKeepsTheLogicalClockAndTheOriginalCommitTime() throws InterruptedException {
        List<Transaction> ts = assemble(MYSQL_FILE, "mysql80_gtid_two_timestamps", "mysql80_query_begin",
            "mysql80_table_map_t1", "mysql80_write_rows_t1", "mysql80_xid");

        assertThat(ts).hasSize(1);
        Transaction t = ts.get(0);
        assertThat(t.whole()).isTrue();
        assertThat(t.head().gtid()).isEqualTo(new SourceGtid.Mysql(SID, "", 23));
        assertThat(t.head().group()).isEqualTo(new CommitGroup(-1, 7, 9, MYSQL_FILE, 0));
        assertThat(t.head().start()).isEqualTo(new BinlogCoordinates(MYSQL_FILE, 1000));
        assertThat(t.end().end()).isEqualTo(new BinlogCoordinates(MYSQL_FILE, nextPosition("mysql80_xid")));
        assertThat(t.end().commitMicros()).isEqualTo(1_709_211_599_000_001L);
        assertThat(t.end().rollback()).isFalse();
        assertThat(t.implicitCommit()).isFalse();
        Change.Rows rows = onlyRowsChange(t);
        assertThat(rows.table().table()).isEqualTo("t1");
        assertThat(rows.kind()).isEqualTo(RowsKind.INSERT);
        assertThat(rows.rows().get(0)[0]).isEqualTo(1L);
        assertThat((byte[]) rows.rows().get(0)[1]).isEqualTo("h\u00e9llo".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void mysqlCreateTableSelectIsOneTransactionOfTheDdlAndItsRows() throws InterruptedException {
        // MySQL 8.0.21+: GTID, CREATE TABLE ... START TRANSACTION, TABLE_MAP, WRITE_ROWS, XID (issue 17, #1).
        List<Transaction> ts = assemble(MYSQL_FILE, "mysql80_gtid_two_timestamps",
            "mysql80_query_create_select_start_transaction", "mysql80_table_map_t1", "mysql80_write_rows_t1",
            "mysql80_xid");

        assertThat(ts).hasSize(1);
        Transaction t = ts.get(0);
        assertThat(t.whole()).isTrue();
        assertThat(t.head().gtid()).isEqualTo(new SourceGtid.Mysql(SID, "", 23));
        assertThat(t.end().end()).isEqualTo(new BinlogCoordinates(MYSQL_FILE, nextPosition("mysql80_xid")));
        assertThat(t.implicitCommit()).as("a DDL: the unit is a barrier").isTrue();
        assertThat(t.changes()).hasSize(2);
        Change.Statement create = (Change.Statement) t.changes().get(0);
        // The clause is for the binlog only: on a MySQL target it allows nothing but BINLOG and COMMIT
        // after it (no SET, no USE, no position row), and MariaDB does not know it.
        assertThat(new String(create.sql(), StandardCharsets.UTF_8)).isEqualTo(
            "CREATE TABLE `t1` (\n  `id` int NOT NULL,\n  `v` varchar(20) DEFAULT NULL,\n  PRIMARY KEY (`id`)\n)");
        assertThat(create.implicitCommit()).isTrue();
        Change.Rows rows = (Change.Rows) t.changes().get(1);
        assertThat(rows.table().table()).isEqualTo("t1");
        assertThat(rows.rows().get(0)[0]).isEqualTo(1L);
    }

    @Test
    void aDdlAfterAGtidStillEndsItsTransactionAtOnce() throws InterruptedException {
        List<Transaction> ts = assemble(MYSQL_FILE, "mysql80_gtid_two_timestamps", "mysql80_query_ddl_all_status_vars");

        assertThat(ts).hasSize(1);
        assertThat(ts.get(0).changes()).hasSize(1);
        assertThat(ts.get(0).end().end().offset()).isEqualTo(nextPosition("mysql80_query_ddl_all_status_vars"));
    }

    @Test
    void zstdPayloadWrappedTransactionAssemblesTheSameWayAndEndsAfterThePayload() throws InterruptedException {
        List<Transaction> ts = assemble(MYSQL_FILE, "mysql80_gtid_one_timestamp", "mysql80_transaction_payload_zstd");

        assertThat(ts).hasSize(1);
        Transaction t = ts.get(0);
        assertThat(t.whole()).isTrue();
        assertThat(t.head().gtid()).isEqualTo(new SourceGtid.Mysql(SID, "", 24));
        assertThat(t.head().group()).isEqualTo(new CommitGroup(-1, 9, 10, MYSQL_FILE, 0));
        long gtidEnd = nextPosition("mysql80_gtid_one_timestamp");
        assertThat(t.head().start()).isEqualTo(new BinlogCoordinates(MYSQL_FILE,
            gtidEnd - HexFixtures.load("mysql80_gtid_one_timestamp").length));
        assertThat(t.end().end()).isEqualTo(new BinlogCoordinates(MYSQL_FILE,
            nextPosition("mysql80_transaction_payload_zstd")));
        assertThat(t.end().commitMicros()).as("immediate = original when bit 55 is clear")
            .isEqualTo(1_709_211_600_654_321L);
        Change.Rows rows = onlyRowsChange(t);
        assertThat(rows.table().table()).isEqualTo("t1");
        assertThat(rows.rows().get(0)[0]).isEqualTo(2L);
        assertThat((byte[]) rows.rows().get(0)[1]).isEqualTo("zstd".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anonymousGtidWithAnUncompressedPayloadHasNoGtidButKeepsItsClock() throws InterruptedException {
        List<Transaction> ts = assemble(MYSQL_FILE, "mysql80_anonymous_gtid",
            "mysql80_transaction_payload_uncompressed");

        assertThat(ts).hasSize(1);
        Transaction t = ts.get(0);
        assertThat(t.head().gtid()).isNull();
        assertThat(t.head().group()).isEqualTo(new CommitGroup(-1, 12, 13, MYSQL_FILE, 0));
        assertThat(t.end().commitMicros()).isEqualTo(1_709_211_601_000_002L);
        assertThat(t.end().end().offset()).isEqualTo(nextPosition("mysql80_transaction_payload_uncompressed"));
        assertThat(onlyRowsChange(t).rows()).hasSize(1);
    }

    @Test
    void mysql57GtidWithoutCommitTimestampsTakesTheCommitTimeFromTheXidHeader() throws InterruptedException {
        List<Transaction> ts = assemble(MYSQL_FILE, "mysql57_gtid_logical_clock", "mysql80_query_begin",
            "mysql80_table_map_t1", "mysql80_write_rows_t1", "mysql80_xid");

        Transaction t = ts.get(0);
        assertThat(t.head().group()).isEqualTo(new CommitGroup(-1, 3, 4, MYSQL_FILE, 0));
        long xidSeconds = HexFixtures.event("mysql80_xid").header().timestamp();
        assertThat(t.end().commitMicros()).isEqualTo(xidSeconds * 1_000_000L);
    }

    @Test
    void mysql56GtidFlagsDoNotLeakIntoTheMariadbFlagsOfTheCommitGroup() throws InterruptedException {
        List<Transaction> ts = assemble(MYSQL_FILE, "mysql56_gtid", "mysql80_query_begin",
            "mysql80_table_map_t1", "mysql80_write_rows_t1", "mysql80_xid");

        CommitGroup g = ts.get(0).head().group();
        assertThat(g.hasLogicalClock()).isFalse();
        // the MySQL flags byte (1 = may have statement-based changes) is not MariaDB's FL_STANDALONE
        assertThat(g.mariadbFlags()).isZero();
    }

    @Test
    void mariadbGroupCommitTransactionKeepsCommitIdAndFlagsWithoutABegin() throws InterruptedException {
        List<Transaction> ts = assemble(MARIADB_FILE, "mariadb_gtid_group_commit", "mariadb_table_map_people",
            "mariadb_delete_rows_v1_nulls", "mariadb_xid");

        assertThat(ts).hasSize(1);
        Transaction t = ts.get(0);
        assertThat(t.head().gtid()).isEqualTo(new SourceGtid.Mariadb(1, 7, 100));
        assertThat(t.head().group()).isEqualTo(new CommitGroup(5001, -1, -1, MARIADB_FILE, 0x0e));
        assertThat(t.head().group().hasMariadbCommitId()).isTrue();
        assertThat(t.head().start()).isEqualTo(new BinlogCoordinates(MARIADB_FILE, 2000));
        assertThat(t.end().end()).isEqualTo(new BinlogCoordinates(MARIADB_FILE, nextPosition("mariadb_xid")));
        long xidSeconds = HexFixtures.event("mariadb_xid").header().timestamp();
        assertThat(t.end().commitMicros()).isEqualTo(xidSeconds * 1_000_000L);
        Change.Rows rows = onlyRowsChange(t);
        assertThat(rows.kind()).isEqualTo(RowsKind.DELETE);
        assertThat(rows.rowCount()).isEqualTo(2);
    }

    @Test
    void mariadbStandaloneDdlGtidAndItsStatementFormOneImplicitlyCommittingTransaction()
        throws InterruptedException {
        List<Transaction> ts = assemble(MARIADB_FILE, "mariadb_gtid_standalone_ddl", "mariadb_query_hrnow_xid");

        assertThat(ts).hasSize(1);
        Transaction t = ts.get(0);
        assertThat(t.head().gtid()).isEqualTo(new SourceGtid.Mariadb(3_000_000_000L, 4_000_000_000L, 101));
        assertThat(t.head().group().hasMariadbCommitId()).isFalse();
        assertThat(t.implicitCommit()).isTrue();
        assertThat(t.end().end().offset()).isEqualTo(nextPosition("mariadb_query_hrnow_xid"));
        Change.Statement s = (Change.Statement) t.changes().get(0);
        assertThat(s.database()).isEqualTo("test");
        assertThat(new String(s.sql(), StandardCharsets.UTF_8)).startsWith("ALTER TABLE t2");
        assertThat(s.status().micros()).isEqualTo(654321);
    }

    @Test
    void theRotateThatEndsAFileIsPassedAsTheStartOfTheNextOne() throws InterruptedException {
        // mariadb-bin.000007 ends after the transaction with a ROTATE at 1,073,743,748 (the file grew past
        // max_binlog_size) naming mariadb-bin.000008 from 4; the stream then goes on in that file.
        EventConverter converter = new EventConverter();
        List<BinlogCoordinates> passed = new ArrayList<>();
        TransactionAssembler assembler = new TransactionAssembler(MARIADB_FILE, Long.MAX_VALUE,
            new TransactionAssembler.Sink() {
                @Override
                public void transaction(Transaction part) {
                    transactions.add(part);
                }

                @Override
                public void heartbeat(BinlogCoordinates position, long timestampSeconds) {
                }

                @Override
                public void passed(BinlogCoordinates position) {
                    passed.add(position);
                }
            });
        for (String fixture : List.of("mariadb_gtid_group_commit", "mariadb_table_map_people",
            "mariadb_delete_rows_v1_nulls", "mariadb_xid")) {
            assembler.accept(converter.convert(HexFixtures.load(fixture)));
        }
        long end = 1_073_743_795L; // the ROTATE's own next position: the end of mariadb-bin.000007
        assembler.accept(new BinlogEvent.Rotate(new io.binlogapplier.binlog.EventHeader(1709211600, 4, 7, 47, end, 0),
            "mariadb-bin.000008", 4));

        assertThat(passed).last().isEqualTo(new BinlogCoordinates("mariadb-bin.000008", 4));
        assertThat(passed).as("no position pairs the new file with the old file's offset")
            .noneMatch(p -> p.file().equals("mariadb-bin.000008") && p.offset() != 4);
        // before the ROTATE: the transaction's end in mariadb-bin.000007
        assertThat(passed.get(passed.size() - 2)).isEqualTo(new BinlogCoordinates(MARIADB_FILE,
            nextPosition("mariadb_xid")));
    }
}
