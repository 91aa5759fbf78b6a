package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.position.BinlogCoordinates;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target whose data differs from the source's stops the applier with exit 23 and one line that
 * names the schema, the table, the key value and the exact failing transaction (GTID and position),
 * under either apply method: a BINLOG statement carries a whole unit of transactions, so the unit is
 * applied again as SQL to find the one that fails; so is a unit whose SQL went several statements per
 * round trip. The saved position stays before that transaction.
 */
class DataConflictIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final int TRANSACTIONS = 100;
    private static final int PLANTED = 57;

    @ParameterizedTest(name = "{0}, apply.method {1}")
    @CsvSource({"duplicate, sql", "duplicate, binlog", "missing, sql", "missing, binlog", "missing_keyless, sql",
        "missing_keyless, binlog", "missing_keyless_indexed, sql", "missing_ordered, sql"})
    void aPlantedConflictNamesTableKeyAndTransaction(String conflict, String method) {
        String db = "conflict_" + conflict + "_" + method;
        // missing_keyless: a table without a key, whose changes are applied as their net effect per row value
        // missing_ordered: a foreign key's child, whose changes are applied in order, several statements per round trip
        // missing_keyless_indexed: the same with an index on id, so that each removed value is one DELETE … LIMIT n
        String key = conflict.contains("keyless") ? "" : " PRIMARY KEY";
        String index = conflict.endsWith("indexed") ? ", KEY (id)" : "";
        boolean child = conflict.endsWith("ordered");
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".p (id INT PRIMARY KEY) ENGINE=InnoDB",
                "INSERT INTO " + db + ".p SELECT seq FROM " + db + ".seq_1_to_" + TRANSACTIONS,
                "CREATE TABLE " + db + ".t (id INT" + key + ", v INT NOT NULL"
                    + (child ? ", FOREIGN KEY (id) REFERENCES " + db + ".p (id)" : "") + index + ") ENGINE=InnoDB");
            if (conflict.startsWith("missing")) {
                m.execute("SET SESSION sql_log_bin = 0",
                    "INSERT INTO " + db + ".t SELECT seq, 0 FROM " + db + ".seq_1_to_" + TRANSACTIONS);
            }
        }
        SERVERS.target().execute(conflict.equals("duplicate")
            ? "INSERT INTO " + db + ".t VALUES (" + PLANTED + ", -1)"
            : "DELETE FROM " + db + ".t WHERE id = " + PLANTED);
        String start = TestApplier.currentPosition(SERVERS.source());
        String failingAt = null;
        String failingGtid = null;
        for (int id = 1; id <= TRANSACTIONS; id++) {
            if (id == PLANTED) {
                failingAt = TestApplier.currentPosition(SERVERS.source());
            }
            SERVERS.source().execute(conflict.equals("duplicate")
                ? "INSERT INTO " + db + ".t VALUES (" + id + ", " + id + ")"
                : "UPDATE " + db + ".t SET v = v + 1 WHERE id = " + id);
            if (id == PLANTED) {
                failingGtid = SERVERS.source().queryString("SELECT @@gtid_binlog_pos");
            }
        }
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "optimistic", 4,
            "  method: " + method + "\n"), "test", db);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(ExitCode.TARGET_DATA_CONFLICT);
        assertThat(e.getMessage()).doesNotContain("\n").contains("`" + db + "`.`t`").contains(String.valueOf(PLANTED))
            .contains("transaction " + failingGtid + " at " + failingAt).doesNotContain("later transaction");
        BinlogCoordinates saved = BinlogCoordinates.parseOrNull(TestApplier.savedPosition(SERVERS.target(), db));
        assertThat(BinlogCoordinates.parseOrNull(failingAt).atOrAfter(saved))
            .as("saved %s, failing transaction at %s", saved, failingAt).isTrue();
    }
}
