package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transactions larger than one BINLOG statement go as several. The target here has
 * {@code max_allowed_packet=1M}, so a BINLOG statement holds at most 512 KB of events and each
 * transaction below takes several, and a source statement is cut between them: their rows must
 * arrive whole and in order (also when rows of a table without triggers go as SQL between them,
 * under the {@code sql} method, where a table with triggers goes as BINLOG), and a statement that
 * fails before the transaction's last one fails the whole transaction, with nothing of it committed
 * and the position before it.
 */
class BinlogStatementPiecesIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair(List.of(), List.of("--max-allowed-packet=1M"));

    private static final int ROWS = 20_000;

    @ParameterizedTest(name = "apply.method {0}, {1} {2}")
    @CsvSource({"binlog, conservative, 1", "binlog, optimistic, 4", "sql, conservative, 1", "sql, optimistic, 4"})
    void transactionsOfManyBinlogStatementsMatchTheSource(String method, String mode, int workers) {
        String db = "pieces_" + method + "_" + mode;
        String start = TestApplier.currentPosition(SERVERS.source());
        // t has a trigger, so under the sql method too its rows go as BINLOG statements, while the audit
        // rows its trigger wrote on the source go as SQL between them
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(100) NOT NULL)",
            "CREATE TABLE " + db + ".audit (id INT AUTO_INCREMENT PRIMARY KEY, t_id INT NOT NULL, delta INT NOT NULL)",
            "CREATE TABLE " + db + ".u (id INT PRIMARY KEY, k INT NOT NULL)",
            "CREATE TRIGGER " + db + ".t_audit AFTER UPDATE ON " + db + ".t FOR EACH ROW"
                + " INSERT INTO " + db + ".audit (t_id, delta) VALUES (NEW.id, NEW.k - OLD.k)",
            "INSERT INTO " + db + ".t SELECT seq, seq, REPEAT(CHAR(65 + seq % 26), 100) FROM " + db + ".seq_1_to_" + ROWS,
            "INSERT INTO " + db + ".u SELECT seq, 0 FROM " + db + ".seq_1_to_" + ROWS);
        SERVERS.source().execute("BEGIN",
            "UPDATE " + db + ".t SET k = k + 1 WHERE id % 3 = 0",
            "UPDATE " + db + ".u SET k = k + 1",
            "UPDATE " + db + ".t SET k = k * 2, pad = REPEAT(CHAR(97 + id % 26), 90)",
            "DELETE FROM " + db + ".u WHERE id % 2 = 0",
            "COMMIT");
        String end = TestApplier.currentPosition(SERVERS.source());
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, mode, workers,
            "  method: " + method + "\n"), "test", db);

        long binlogStatementsBefore = binlogStatements();

        TestApplier.runUntilCurrent(cfg);

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        // The changes to t alone hold about 5.7 MB of row events, about eleven pieces of 512 KB (with the
        // default packet the whole test ran 5 BINLOG statements)
        assertThat(binlogStatements() - binlogStatementsBefore).as("BINLOG statements the target ran")
            .isGreaterThanOrEqualTo(8);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".audit")).isEqualTo(ROWS + ROWS / 3);
        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).isEqualTo(end);
    }

    @Test
    void aBinlogStatementThatFailsBeforeTheLastFailsTheWholeTransaction() {
        String db = "pieces_conflict";
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(100) NOT NULL)",
                "INSERT INTO " + db + ".t SELECT seq, seq, REPEAT('x', 100) FROM " + db + ".seq_1_to_" + ROWS);
        }
        // The UPDATE's first BINLOG statement (rows from id 1 on) finds no row 3 on the target; later ones
        // would apply.
        SERVERS.target().execute("DELETE FROM " + db + ".t WHERE id = 3");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("UPDATE " + db + ".t SET k = -k, pad = REPEAT('y', 100)");
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: binlog\n"), "test", db);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(ExitCode.TARGET_DATA_CONFLICT);
        assertThat(e.getMessage()).doesNotContain("\n");
        // nothing of the transaction is committed: every row the target has still holds its old values
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t WHERE k < 0 OR pad <> REPEAT('x', 100)"))
            .isZero();
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(ROWS - 1);
        String saved = TestApplier.savedPosition(SERVERS.target(), db);
        assertThat(saved == null || saved.equals(start)).as("saved %s, the failing transaction starts at %s", saved, start)
            .isTrue();
    }

    /**
     * A BINLOG statement stays within its bound (512 KB of events here) when small source statements
     * (about 400 KB buffered) are followed by one larger than the bound:
     * the buffered ones go alone first, not together with the first piece of the large one (which made
     * one statement of about 900 KB, 1.2 MB of base64, that the target refused; the unit was then
     * applied again as SQL).
     */
    @Test
    void smallStatementsThenALargeOneStayWithinOneBinlogStatementsBound() {
        String db = "pieces_buffered";
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".s (id INT PRIMARY KEY, pad VARCHAR(1000) NOT NULL)",
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(100) NOT NULL)",
            "INSERT INTO " + db + ".t SELECT seq, seq, REPEAT('x', 100) FROM " + db + ".seq_1_to_" + ROWS);
        // one transaction: 360 small statements, then the large one
        String[] statements = new String[363];
        statements[0] = "BEGIN";
        for (int i = 0; i < 360; i++) {
            statements[i + 1] = "INSERT INTO " + db + ".s VALUES (" + i + ", REPEAT('s', 1000))";
        }
        statements[361] = "UPDATE " + db + ".t SET k = k + 1, pad = REPEAT('z', 100)";
        statements[362] = "COMMIT";
        SERVERS.source().execute(statements);
        var redone = new java.util.concurrent.atomic.AtomicLong();
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: binlog\n  unit_max_transactions: 1000\n"), "test", db);

        TestApplier.runUntilCurrent(cfg, new PipelineMetrics() {
            @Override
            public void retried(String reason) {
                redone.incrementAndGet();
            }
        });

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(redone.get()).as("units applied again (after a BINLOG statement the target refused)").isZero();
    }

    /**
     * Under the sql method a table with triggers goes as BINLOG statements (its trigger's rows come
     * from the source). A source statement on it whose last event alone takes it past the bound was
     * applied whole as SQL, which fired the target's trigger: extra audit rows. Statements of many
     * sizes around the bound (512 KB here) are sure to include such ones.
     */
    @Test
    void aTriggerTablesStatementWhoseLastEventPassesTheBoundStillFiresNoTrigger() {
        String db = "pieces_trigger_end";
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(100) NOT NULL)",
            "CREATE TABLE " + db + ".audit (id INT AUTO_INCREMENT PRIMARY KEY, t_id INT NOT NULL)",
            "CREATE TRIGGER " + db + ".t_audit AFTER UPDATE ON " + db + ".t FOR EACH ROW"
                + " INSERT INTO " + db + ".audit (t_id) SELECT NEW.id FROM DUAL WHERE NEW.id % 1000 = 0",
            "INSERT INTO " + db + ".t SELECT seq, seq, REPEAT('x', 100) FROM " + db + ".seq_1_to_5000");
        List<String> updates = new java.util.ArrayList<>();
        for (int n = 4000; n <= 4800; n += 20) {
            updates.add("UPDATE " + db + ".t SET k = k + 1 WHERE id <= " + n);
        }
        SERVERS.source().execute(updates.toArray(new String[0]));
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: sql\n"), "test", db);

        TestApplier.runUntilCurrent(cfg);

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
    }

    private static long binlogStatements() {
        return SERVERS.target().globalStatus("Com_binlog");
    }
}
