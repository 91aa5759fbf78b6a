package io.binlogapplier.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A schema of many tables under the SQL method: a worker prepares a statement per table, form and
 * row count, and the target refuses more than max_prepared_stmt_count open statements over all
 * sessions (error 1461, upon which Connector/J quietly falls back to client-side statements, text
 * SQL). The worker keeps at most a bounded number open, closing the least recently used, so here
 * 300 tables with seven statement shapes each stay under a limit of 1,000.
 */
class ManyTablesIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final int TABLES = 300;

    @Test
    void aWorkerStaysUnderTheTargetsLimitOfPreparedStatementsOnASchemaOfManyTables() {
        String start = TestApplier.currentPosition(SERVERS.source());
        List<String> sql = new ArrayList<>();
        sql.add("CREATE DATABASE many");
        for (int t = 1; t <= TABLES; t++) {
            sql.add("CREATE TABLE many.t" + t + " (id INT PRIMARY KEY, v INT NOT NULL)");
        }
        SERVERS.source().execute(sql.toArray(String[]::new));
        sql.clear();
        for (int t = 1; t <= TABLES; t++) {
            String table = "many.t" + t;
            // 7 rows: INSERTs of 4, 2 and 1 rows; then the net effect updates 3 (2 + 1) and deletes 3 (2 + 1)
            sql.add("USE many; INSERT INTO " + table + " SELECT seq, seq FROM seq_1_to_7");
            sql.add("UPDATE " + table + " SET v = v + 10 WHERE id <= 3");
            sql.add("DELETE FROM " + table + " WHERE id > 4");
        }
        SERVERS.source().execute(sql.toArray(String[]::new));
        SERVERS.target().execute("SET GLOBAL max_prepared_stmt_count = 1000");
        try {
            ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "many", start,
                "conservative", 1, "  method: sql\n  unit_max_transactions: 1\n"), "many", "many");
            java.util.concurrent.atomic.AtomicLong peak = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicLong units = new java.util.concurrent.atomic.AtomicLong();
            TestApplier.runUntilCurrent(cfg, new PipelineMetrics() {
                @Override
                public void unitCommitted(int transactions, long rows, long bytes) {
                    // after every tenth unit: how many statements the target holds open (all sessions)
                    if (units.incrementAndGet() % 10 == 0) {
                        peak.accumulateAndGet(SERVERS.target().globalStatus("Prepared_stmt_count"), Math::max);
                    }
                }
            });
            System.out.println("many tables: at most " + peak + " prepared statements open on the target");
            // Past the limit Connector/J would quietly fall back to client-side statements (text SQL).
            assertThat(peak.get()).as("prepared statements open on the target").isPositive()
                .isLessThan(1000)
                .isLessThanOrEqualTo(io.binlogapplier.apply.TransactionApplier.maxPreparedStatements(1) + 20L);
        } finally {
            SERVERS.target().execute("SET GLOBAL max_prepared_stmt_count = DEFAULT");
        }
        TableComparison.Report r = TableComparison.compare(SERVERS.source(), SERVERS.target(), "many");
        assertThat(r.same()).as(r.toString()).isTrue();
    }
}
