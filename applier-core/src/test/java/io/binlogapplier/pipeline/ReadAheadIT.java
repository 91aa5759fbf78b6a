package io.binlogapplier.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Read-ahead only reads: a catch-up of small transactions (updates of indexed and plain columns,
 * deletes, inserts; a composite primary key, a secondary index, a table without a key) gives the
 * same tables with it on, under either method, as with it off, and its threads end when the applier
 * stops.
 */
class ReadAheadIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final String READ_AHEAD = "  read_ahead:\n    enabled: true\n    connections: 2\n    rows: 40\n";
    private static String start;

    @BeforeAll
    static void load() {
        start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE ra",
            "CREATE TABLE ra.t1 (id INT PRIMARY KEY, k INT NOT NULL, c CHAR(20) NOT NULL, KEY k_1 (k))",
            "CREATE TABLE ra.t2 (a INT, b VARCHAR(10), v INT, PRIMARY KEY (a, b), KEY kv (v, a))",
            "CREATE TABLE ra.t3 (x INT, y INT, KEY ky (y))",
            "USE ra; INSERT INTO ra.t1 SELECT seq, seq % 97, CONCAT('c', seq) FROM seq_1_to_3000",
            "USE ra; INSERT INTO ra.t2 SELECT seq % 300, CONCAT('b', seq % 7), seq FROM seq_1_to_2000",
            "USE ra; INSERT INTO ra.t3 SELECT seq % 50, seq % 13 FROM seq_1_to_500");
        Random r = new Random(16);
        List<String> sql = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            int id = 1 + r.nextInt(3000);
            sql.add(switch (i % 6) {
                case 0 -> "UPDATE ra.t1 SET k = k + 1 WHERE id = " + id;
                case 1 -> "UPDATE ra.t1 SET c = CONCAT('u', " + i + ") WHERE id = " + id;
                case 2 -> "DELETE FROM ra.t1 WHERE id = " + id;
                case 3 -> "REPLACE INTO ra.t1 VALUES (" + id + ", " + r.nextInt(97) + ", 'r" + i + "')";
                case 4 -> "UPDATE ra.t2 SET v = v + 1, a = a + 1000 WHERE a = " + r.nextInt(300) + " AND b = 'b"
                    + r.nextInt(7) + "'";
                default -> "UPDATE ra.t3 SET y = y + 1 WHERE x = " + r.nextInt(50) + " LIMIT 1";
            });
        }
        SERVERS.source().execute(sql.toArray(String[]::new));
    }

    private static ApplierConfig config(String method, int workers, String extra) {
        return new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "ra", start, "conservative", workers,
            "  method: " + method + "\n  unit_max_transactions: 8\n" + extra), "ra", "ra");
    }

    private static void resetTarget() {
        SERVERS.target().execute("DROP DATABASE IF EXISTS ra", "DROP DATABASE IF EXISTS binlog_applier");
    }

    private static String checksums() {
        return checksum("ra.t1") + " " + checksum("ra.t2") + " " + checksum("ra.t3");
    }

    private static String checksum(String table) {
        try (var c = SERVERS.target().connect(); var s = c.createStatement();
             var rs = s.executeQuery("CHECKSUM TABLE " + table + " EXTENDED")) {
            rs.next();
            return table + "=" + rs.getLong(2);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Counts what read-ahead reports, by outcome. */
    private static final class Counts implements PipelineMetrics {
        final Map<String, AtomicLong> rows = new ConcurrentHashMap<>();
        final AtomicLong statements = new AtomicLong();

        @Override
        public void readAhead(String outcome, long n, long statementsRun) {
            rows.computeIfAbsent(outcome, x -> new AtomicLong()).addAndGet(n);
            statements.addAndGet(statementsRun);
        }

        long rows(String outcome) {
            AtomicLong v = rows.get(outcome);
            return v == null ? 0 : v.get();
        }
    }

    private static boolean readAheadThreadsAlive() {
        return Thread.getAllStackTraces().keySet().stream()
            .anyMatch(t -> t.isAlive() && t.getName().startsWith("applier-ra-read-ahead-"));
    }

    @Test
    void theTablesAreTheSameWithReadAheadOnUnderEitherMethodAsWithItOff() {
        resetTarget();
        TestApplier.runUntilCurrent(config("sql", 1, ""));
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "ra");
        String off = checksums();

        for (String method : List.of("sql", "binlog")) {
            resetTarget();
            Counts counts = new Counts();
            TestApplier.runUntilCurrent(config(method, 1, READ_AHEAD), counts);
            System.out.println("read-ahead under " + method + ": " + counts.rows + ", " + counts.statements
                + " statements");
            assertThat(counts.rows("read")).as("row changes read ahead under " + method).isPositive();
            assertThat(counts.statements.get()).isPositive();
            assertThat(counts.rows("failed")).as("failed reads under " + method).isZero();
            TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "ra");
            assertThat(checksums()).as("the tables with read-ahead on, under " + method).isEqualTo(off);
            assertThat(readAheadThreadsAlive()).as("read-ahead threads after the run").isFalse();
        }
    }

    /**
     * One worker buffers a unit's row events and sends them in one BINLOG statement at its end; read-ahead
     * reads only after the worker's frontier, so it read a whole unit ahead of the target. While it reads,
     * the worker sends batches of a quarter of its window (here 10 row changes) instead, and the tables
     * come out the same.
     */
    @Test
    void oneWorkerSendsItsUnitsInBatchesOfAQuarterOfTheWindowWhileReadAheadReads() {
        resetTarget();
        String units = "  unit_max_transactions: 200\n";
        long before = SERVERS.target().globalStatus("Com_binlog");
        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "ra", start,
            "optimistic", 1, "  method: binlog\n" + units), "ra", "ra"));
        long whole = SERVERS.target().globalStatus("Com_binlog") - before;
        String off = checksums();

        resetTarget();
        before = SERVERS.target().globalStatus("Com_binlog");
        Counts counts = new Counts();
        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "ra", start,
            "optimistic", 1, "  method: binlog\n" + units + READ_AHEAD), "ra", "ra"), counts);
        long batched = SERVERS.target().globalStatus("Com_binlog") - before;
        System.out.println("BINLOG statements: " + whole + " with read-ahead off, " + batched + " with it on; read-ahead "
            + counts.rows);
        // about 1,500 row changes in units of up to 200 transactions: 10 statements without batches (the
        // load's own inserts included), about 150 in batches of 10
        assertThat(batched).as("BINLOG statements with read-ahead on").isGreaterThanOrEqualTo(100)
            .isGreaterThan(5 * whole);
        assertThat(counts.rows("read")).as("row changes read ahead").isPositive();
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "ra");
        assertThat(checksums()).as("the tables with read-ahead's batches").isEqualTo(off);
    }

    @Test
    @SuppressWarnings("try") // BackgroundApplier.close may be interrupted
    void readAheadStopsWhenTheApplierStops() throws InterruptedException {
        resetTarget();
        Counts counts = new Counts();
        try (BackgroundApplier a = new BackgroundApplier(config("sql", 2, READ_AHEAD.replace("rows: 40", "rows: 5")),
            counts, "ra-background")) {
            BackgroundApplier.await("reading ahead", 60, () -> counts.rows("read") > 0, a.failure);
            assertThat(readAheadThreadsAlive()).isTrue();
            a.close();
            assertThat(a.running()).isFalse();
            assertThat(a.failure.get()).isNull();
        }
        assertThat(readAheadThreadsAlive()).as("read-ahead threads after the stop").isFalse();
    }
}
