package io.binlogapplier.filter;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.pipeline.Applier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * filter: include, exclude and rename against real servers, under both apply methods and both
 * modes with several workers: left-out tables stay as they were on the target (or absent), the
 * others match the source, renamed schemas are applied under their new name, DDL follows the
 * filter, and transactions the filter empties still move the position.
 */
class FilterIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @ParameterizedTest(name = "apply.method {0}, {1} mode, {2} workers")
    @CsvSource({"sql, conservative, 2", "binlog, conservative, 2", "sql, optimistic, 4", "binlog, optimistic, 4"})
    void leftOutTablesAreUntouchedAndTheOthersMatchTheSourceUnderTheirNewSchema(String method, String mode,
                                                                              int workers) throws SQLException {
        String s = method + "_" + mode.charAt(0) + workers;
        String shop = "shop_" + s;
        String replica = shop + "_replica";
        String crm = "crm_" + s;
        String logs = "logs_" + s;
        MariaDb source = SERVERS.source();
        MariaDb target = SERVERS.target();
        source.execute("SET SESSION sql_log_bin = 0",
            "CREATE DATABASE " + shop,
            "CREATE TABLE " + shop + ".orders (id INT PRIMARY KEY, customer INT, amount DECIMAL(10,2), note"
                + " VARCHAR(40), KEY (customer))",
            "CREATE TABLE " + shop + ".tmp_cache (id INT PRIMARY KEY, v VARCHAR(40))",
            "CREATE TABLE " + shop + ".audit_log (id INT AUTO_INCREMENT PRIMARY KEY, order_id INT, what VARCHAR(10))",
            // Each change to orders also writes audit_log in the same statement: its rows events end the statement.
            "CREATE TRIGGER " + shop + ".orders_ai AFTER INSERT ON " + shop + ".orders FOR EACH ROW INSERT INTO "
                + shop + ".audit_log (order_id, what) VALUES (NEW.id, 'insert')",
            "CREATE TRIGGER " + shop + ".orders_au AFTER UPDATE ON " + shop + ".orders FOR EACH ROW INSERT INTO "
                + shop + ".audit_log (order_id, what) VALUES (NEW.id, 'update')",
            "CREATE DATABASE " + crm,
            "CREATE TABLE " + crm + ".customers (id INT PRIMARY KEY, name VARCHAR(40), visits INT)",
            "CREATE TABLE " + crm + ".leads (id INT PRIMARY KEY, v VARCHAR(40))",
            "INSERT INTO " + crm + ".customers SELECT seq, CONCAT('customer ', seq), 0 FROM " + crm + ".seq_1_to_10",
            "CREATE DATABASE " + logs,
            "CREATE TABLE " + logs + ".events (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(40))");
        target.execute("CREATE DATABASE " + replica,
            "CREATE TABLE " + replica + ".orders (id INT PRIMARY KEY, customer INT, amount DECIMAL(10,2), note"
                + " VARCHAR(40), KEY (customer))",
            "CREATE TABLE " + replica + ".tmp_cache (id INT PRIMARY KEY, v VARCHAR(40))",
            "INSERT INTO " + replica + ".tmp_cache VALUES (1, 'target only'), (2, 'target only')",
            "CREATE DATABASE " + crm,
            "CREATE TABLE " + crm + ".customers (id INT PRIMARY KEY, name VARCHAR(40), visits INT)",
            "CREATE TABLE " + crm + ".leads (id INT PRIMARY KEY, v VARCHAR(40))",
            "INSERT INTO " + crm + ".customers SELECT seq, CONCAT('customer ', seq), 0 FROM " + crm + ".seq_1_to_10",
            "INSERT INTO " + crm + ".leads VALUES (1, 'target lead')");
        String tmpBefore = dump(target, replica + ".tmp_cache");
        String leadsBefore = dump(target, crm + ".leads");
        String start = TestApplier.currentPosition(source);
        long gtidBefore = sourceSequence(source);

        try (Connection c = source.connect(); Statement st = c.createStatement()) {
            for (int i = 1; i <= 120; i++) {
                switch (i % 6) {
                    case 0 -> st.execute("BEGIN; INSERT INTO " + shop + ".orders VALUES (" + i + ", " + (i % 10 + 1)
                        + ", " + i + ".50, 'order " + i + "'); INSERT INTO " + shop + ".tmp_cache VALUES (" + i
                        + ", 'cache'); UPDATE " + crm + ".customers SET visits = visits + 1 WHERE id = " + (i % 10 + 1)
                        + "; COMMIT");
                    // wholly left out: an excluded table, an excluded schema
                    case 1 -> st.execute("INSERT INTO " + shop + ".tmp_cache VALUES (" + (1000 + i) + ", 'only tmp')");
                    case 2 -> st.execute("INSERT INTO " + logs + ".events (v) VALUES ('event " + i + "')");
                    // several rows, the trigger's audit rows interleaved
                    case 3 -> st.execute("INSERT INTO " + shop + ".orders VALUES (" + (i * 10 + 1) + ", 1, 1.00, 'a'),"
                        + " (" + (i * 10 + 2) + ", 2, 2.00, 'b'), (" + (i * 10 + 3) + ", 3, 3.00, 'c')");
                    case 4 -> st.execute("UPDATE " + shop + ".orders SET amount = amount + 1, note = CONCAT(note, '+')"
                        + " WHERE id <= " + i);
                    default -> st.execute("BEGIN; INSERT INTO " + crm + ".leads VALUES (" + i + ", 'lead'); UPDATE "
                        + crm + ".customers SET name = CONCAT(name, '.') WHERE id = " + (i % 10 + 1) + "; COMMIT");
                }
            }
            st.execute("DELETE FROM " + shop + ".orders WHERE id % 7 = 0");
        }
        long transactions = sourceSequence(source) - gtidBefore;
        ApplierConfig cfg = config("rows_" + s, start, mode, workers, method, """
            filter:
              include: ["%1$s.*", "%2$s.customers", "%3$s.*"]
              exclude: ["%1$s.tmp_*", "*.audit_log", "%3$s.*"]
              rename: { %1$s: %4$s }
            """.formatted(shop, crm, logs, replica));

        Applier.Outcome outcome = TestApplier.runUntilCurrent(cfg);

        TableComparison.assertSameRenamed(source, shop, target, replica, "orders");
        TableComparison.assertSameRenamed(source, crm, target, crm, "customers");
        assertThat(source.queryLong("SELECT COUNT(*) FROM " + shop + ".orders")).isGreaterThan(50);
        assertThat(dump(target, replica + ".tmp_cache")).as("excluded table on the target").isEqualTo(tmpBefore);
        assertThat(dump(target, crm + ".leads")).as("table not included, on the target").isEqualTo(leadsBefore);
        assertThat(schemaExists(target, shop)).as("nothing lands under the source's name").isFalse();
        assertThat(schemaExists(target, logs)).isFalse();
        assertThat(transactions).isGreaterThan(100);
        assertThat(outcome.transactions()).as("left-out transactions count as applied").isEqualTo(transactions);
        assertThat(TestApplier.savedPosition(SERVERS.target(), "rows_" + s))
            .isEqualTo(TestApplier.currentPosition(source));
        assertThat(TestApplier.runUntilCurrent(cfg).nothingToDo()).isTrue();
    }

    @ParameterizedTest(name = "apply.method {0}")
    @ValueSource(strings = {"sql", "binlog"})
    void ddlOnLeftOutTablesIsSkippedAndDdlOnARenamedSchemaIsAppliedUnderItsNewName(String method) throws IOException {
        String s = method;
        String ddl = "ddl_" + s;
        MariaDb source = SERVERS.source();
        MariaDb target = SERVERS.target();
        source.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + ddl,
            "CREATE TABLE " + ddl + ".orders (id INT PRIMARY KEY, v VARCHAR(10))",
            "INSERT INTO " + ddl + ".orders VALUES (1, 'one'), (2, 'two')",
            "CREATE TABLE " + ddl + ".tmp_old (id INT PRIMARY KEY)");
        target.execute("CREATE DATABASE " + ddl + "_replica",
            "CREATE TABLE " + ddl + "_replica.orders (id INT PRIMARY KEY, v VARCHAR(10))",
            "INSERT INTO " + ddl + "_replica.orders VALUES (1, 'one'), (2, 'two')");
        String start = TestApplier.currentPosition(source);
        source.runScript(resource("/scenarios/filter_ddl.sql").replace("_S", "_" + s));
        ApplierConfig cfg = config("ddl_" + s, start, "optimistic", 2, method, """
            filter:
              include: ["ddl_%1$s.*", "ddlnew_%1$s.*"]
              exclude: ["ddl_%1$s.tmp_*"]
              rename: { ddl_%1$s: ddl_%1$s_replica, ddlnew_%1$s: ddlnew_%1$s_replica }
            """.formatted(s));

        TestApplier.runUntilCurrent(cfg);

        TableComparison.Report r = TableComparison.assertSameRenamed(source, ddl, target, ddl + "_replica");
        assertThat(r.tables()).containsExactlyInAnyOrder(ddl + "_replica.items", ddl + "_replica.notes2",
            ddl + "_replica.orders");
        TableComparison.assertSameRenamed(source, "ddlnew_" + s, target, "ddlnew_" + s + "_replica");
        assertThat(target.queryString("SELECT GROUP_CONCAT(name ORDER BY id) FROM " + ddl + "_replica.v"))
            .as("the view reads the renamed schema").isEqualTo("two,three");
        assertThat(target.queryString("SELECT VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_SCHEMA = '"
            + ddl + "_replica'")).contains("`" + ddl + "_replica`.").doesNotContain("`" + ddl + "`.");
        for (String gone : new String[] {ddl, "ddlnew_" + s, "other_" + s}) {
            assertThat(schemaExists(target, gone)).as(gone + " on the target").isFalse();
        }
        assertThat(TestApplier.savedPosition(SERVERS.target(), "ddl_" + s))
            .isEqualTo(TestApplier.currentPosition(source));
        assertThat(TestApplier.runUntilCurrent(cfg).nothingToDo()).isTrue();
    }

    @Test
    void transactionsTheFilterEmptiesStillAdvanceThePositionAndARestartChangesNothing() {
        MariaDb source = SERVERS.source();
        source.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE empty_src",
            "CREATE TABLE empty_src.t (id INT PRIMARY KEY)");
        String start = TestApplier.currentPosition(source);
        source.execute("INSERT INTO empty_src.t VALUES (1)", "CREATE TABLE empty_src.t2 (id INT PRIMARY KEY)",
            "INSERT INTO empty_src.t2 VALUES (1), (2)", "UPDATE empty_src.t SET id = 5", "DROP TABLE empty_src.t2",
            "CREATE DATABASE empty_other", "DROP DATABASE empty_other");
        ApplierConfig cfg = config("empty", start, "conservative", 1, "sql", """
            filter:
              exclude: ["empty_%.*"]
            """);

        Applier.Outcome outcome = TestApplier.runUntilCurrent(cfg);
        String row = stateRow("empty");
        Applier.Outcome again = TestApplier.runUntilCurrent(cfg);

        assertThat(outcome.transactions()).isEqualTo(7);
        assertThat(TestApplier.savedPosition(SERVERS.target(), "empty")).isEqualTo(TestApplier.currentPosition(source));
        assertThat(schemaExists(SERVERS.target(), "empty_src")).isFalse();
        assertThat(again.nothingToDo()).isTrue();
        assertThat(stateRow("empty")).isEqualTo(row);
    }

    @Test
    void aStatementTheFilterCannotSplitStopsWithItsOwnExitCodeAndKeepsThePosition() {
        MariaDb source = SERVERS.source();
        MariaDb target = SERVERS.target();
        for (MariaDb m : new MariaDb[] {source, target}) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE split",
                "CREATE TABLE split.a (id INT PRIMARY KEY)", "CREATE TABLE split.tmp_b (id INT PRIMARY KEY)");
        }
        String start = TestApplier.currentPosition(source);
        source.execute("DROP TABLE split.a, split.tmp_b", "CREATE TABLE split.c (id INT PRIMARY KEY)");
        ApplierConfig cfg = config("split", start, "conservative", 1, "sql", """
            filter:
              exclude: ["split.tmp_*"]
            """);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_STATEMENT_UNFILTERABLE);
        assertThat(e.exitCode().code()).isEqualTo(17);
        assertThat(e.getMessage()).contains("DROP TABLE `split`.`a`,`split`.`tmp_b`").contains("cannot be split");
        assertThat(TestApplier.savedPosition(SERVERS.target(), "split")).isEqualTo(start);
        assertThat(target.queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'split'"))
            .as("nothing of it, or after it, applied").isEqualTo(2);
    }

    /**
     * A statement the filter applies whose default database is left out: its unqualified names must not
     * resolve in whatever database the worker used last. Here the worker was last in {@code usedb_shop},
     * which holds a {@code tpl} too; {@code CREATE TABLE usedb_shop.t2 LIKE tpl} from default database
     * {@code usedb_app} (left out, so absent) made {@code t2} a copy of {@code usedb_shop.tpl}. It now
     * fails as on a native replica (26), the position before it.
     */
    @Test
    void unqualifiedNamesOfALeftOutDefaultDatabaseDoNotResolveInTheLastOne() {
        MariaDb source = SERVERS.source();
        MariaDb target = SERVERS.target();
        source.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE usedb_app",
            "CREATE TABLE usedb_app.tpl (app_only INT PRIMARY KEY)");
        for (MariaDb m : new MariaDb[] {source, target}) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE usedb_shop",
                "CREATE TABLE usedb_shop.tpl (shop_only INT PRIMARY KEY)");
        }
        String start = TestApplier.currentPosition(source);
        String failingAt;
        try (java.sql.Connection c = source.connect(); java.sql.Statement st = c.createStatement()) {
            st.execute("USE usedb_shop");
            st.execute("CREATE TABLE t1 (id INT PRIMARY KEY)");
            st.execute("USE usedb_app");
            failingAt = TestApplier.currentPosition(source);
            st.execute("CREATE TABLE usedb_shop.t2 LIKE tpl");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        ApplierConfig cfg = config("usedb", start, "conservative", 1, "sql", """
            filter:
              include: ["usedb_shop.*"]
            """);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(ExitCode.TARGET_STATEMENT_FAILED);
        assertThat(target.queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'usedb_shop'"
            + " AND TABLE_NAME = 't2'")).as("no t2 made like usedb_shop.tpl").isZero();
        assertThat(TestApplier.savedPosition(SERVERS.target(), "usedb")).isEqualTo(failingAt);
    }

    private static ApplierConfig config(String name, String start, String mode, int workers, String method,
                                        String filter) {
        return new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), name, start, mode, workers,
            "  method: " + method + "\n" + filter), "test", name);
    }

    /** The source's last GTID sequence number (domain 0): how many transactions it has logged. */
    private static long sourceSequence(MariaDb source) {
        String pos = source.queryString("SELECT @@gtid_binlog_pos");
        return pos == null || pos.isEmpty() ? 0 : Long.parseLong(pos.substring(pos.lastIndexOf('-') + 1));
    }

    private static String dump(MariaDb m, String table) {
        return m.queryString("SELECT GROUP_CONCAT(CONCAT_WS(':', id, v) ORDER BY id SEPARATOR ',') FROM " + table);
    }

    private static boolean schemaExists(MariaDb m, String schema) {
        return m.queryLong("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '" + schema + "'") > 0;
    }

    private static String stateRow(String stream) {
        return SERVERS.target().queryString("SELECT CONCAT_WS('|', binlog_file, binlog_offset, gtid_set,"
            + " applied_transactions, updated_at) FROM binlog_applier.applier_position WHERE stream = '" + stream + "'");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = FilterIT.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
