package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A source that names its columns in the binlog ({@code binlog_row_metadata=FULL}) and a target table
 * whose columns are in another order. A BINLOG statement is applied by column position, so under the
 * binlog method such a table's rows must go as SQL (matched by name), or the values of {@code a} and
 * {@code b} swap silently; a table whose rows cannot go as SQL either (triggers on the target) stops the
 * applier with nothing of its unit committed.
 */
class ColumnOrderIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair(List.of("--binlog-row-metadata=FULL"), List.of());

    private static final String ROWS = "SELECT GROUP_CONCAT(CONCAT_WS(',', id, a, b, c) ORDER BY id SEPARATOR ';') FROM ";

    /** Table {@code o} in {@code db}: (id, a, b, c) on the source, (id, b, a, c) on the target; returns the start. */
    private static String reorderedTable(String db, boolean targetTrigger) {
        SERVERS.source().execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".o (id INT PRIMARY KEY, a INT, b INT, c VARCHAR(10))",
            "CREATE TABLE " + db + ".same (id INT PRIMARY KEY, v INT)");
        SERVERS.target().execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".o (id INT PRIMARY KEY, b INT, a INT, c VARCHAR(10))",
            "CREATE TABLE " + db + ".same (id INT PRIMARY KEY, v INT)",
            "CREATE TABLE " + db + ".audit (id INT AUTO_INCREMENT PRIMARY KEY, o_id INT)");
        if (targetTrigger) {
            SERVERS.target().execute("CREATE TRIGGER " + db + ".o_ai AFTER INSERT ON " + db + ".o FOR EACH ROW"
                + " INSERT INTO " + db + ".audit (o_id) VALUES (NEW.id)");
        }
        return TestApplier.currentPosition(SERVERS.source());
    }

    private static void changes(String db) {
        MariaDb s = SERVERS.source();
        s.execute("INSERT INTO " + db + ".same VALUES (1, 1), (2, 2)");
        s.execute("BEGIN", "INSERT INTO " + db + ".o SELECT seq, seq, seq * 100, CONCAT('r', seq) FROM "
            + db + ".seq_1_to_20", "UPDATE " + db + ".same SET v = v + 1", "COMMIT");
        s.execute("UPDATE " + db + ".o SET a = a + 10, b = b + 1 WHERE id < 5");
        s.execute("DELETE FROM " + db + ".o WHERE id % 7 = 0");
        s.execute("UPDATE " + db + ".o SET c = 'changed' WHERE id > 15");
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({"binlog, optimistic, 4", "binlog, conservative, 1", "sql, optimistic, 4"})
    void valuesReachTheirOwnColumns(String method, String mode, int workers) {
        String db = "order_" + method + "_" + workers;
        String start = reorderedTable(db, false);
        changes(db);
        String end = TestApplier.currentPosition(SERVERS.source());

        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, mode,
            workers, "  method: " + method + "\n"), "test", db));

        assertThat(SERVERS.target().queryString(ROWS + db + ".o")).isEqualTo(SERVERS.source().queryString(ROWS + db + ".o"));
        assertThat(SERVERS.target().queryString(ROWS + db + ".o")).contains("1,11,101,r1");
        assertThat(SERVERS.target().queryLong("SELECT SUM(v) FROM " + db + ".same")).isEqualTo(5);
        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).isEqualTo(end);
    }

    @Test
    void aReorderedTableWithTargetTriggersStopsTheApplierWithNothingOfItsUnitCommitted() {
        String db = "order_trigger";
        String start = reorderedTable(db, true);
        changes(db);

        ApplierException e = TestApplier.runExpectingFailure(new ConfigLoader().parse(TestApplier.yaml(
            SERVERS.servers(), db, start, "conservative", 1, "  method: binlog\n"), "test", db));

        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_SCHEMA_MISMATCH);
        assertThat(e.getMessage()).contains("`" + db + "`.`o`").contains("orders its columns differently");
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".o")).isZero();
        // the transaction before it may share its unit (rolled back with it) or have committed alone
        assertThat(SERVERS.target().queryLong("SELECT COALESCE(SUM(v), 0) FROM " + db + ".same")).isIn(0L, 3L);
    }
}
