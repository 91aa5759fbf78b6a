package io.binlogapplier.pipeline;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL method on tables foreign keys link: their row changes are grouped by key within a unit
 * (inserts of one table as a multi-row INSERT, deletes as a DELETE of a list of keys) where no key
 * they share orders them, and stay in source order, one statement per row, where a cascade could
 * reach further than the keys show: the first table of a chain of three (a delete there cascades to
 * the grandchildren) and a table that references itself. Orders and their items by a
 * case-insensitive unique code with ON UPDATE/DELETE CASCADE, notes with ON DELETE SET NULL, codes
 * re-keyed, swapped between orders, deleted and taken again within a unit; the chain's middle and
 * last tables grouped. Every table must match the source in both modes at 1 and 8 workers, with no
 * unit applied a second time in source order (which would hide a grouping that broke a foreign key
 * or a unique key); the target's general log shows which tables went grouped.
 */
class LinkedTablesIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static String start;

    @BeforeAll
    static void generate() {
        start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE lk",
            "CREATE TABLE lk.orders (id INT PRIMARY KEY, code VARCHAR(16) COLLATE utf8mb4_general_ci NOT NULL,"
                + " note VARCHAR(20), UNIQUE KEY code (code))",
            "CREATE TABLE lk.items (id INT AUTO_INCREMENT PRIMARY KEY, order_code VARCHAR(16) COLLATE"
                + " utf8mb4_general_ci NOT NULL, qty INT NOT NULL, KEY order_code (order_code),"
                + " FOREIGN KEY (order_code) REFERENCES lk.orders (code) ON DELETE CASCADE ON UPDATE CASCADE)",
            "CREATE TABLE lk.notes (id INT PRIMARY KEY, order_id INT NULL, txt VARCHAR(10),"
                + " FOREIGN KEY (order_id) REFERENCES lk.orders (id) ON DELETE SET NULL)",
            // a chain: b is a child and a parent, c the child of a child
            "CREATE TABLE lk.a (id INT PRIMARY KEY, v INT)",
            "CREATE TABLE lk.b (id INT PRIMARY KEY, a_id INT NOT NULL, FOREIGN KEY (a_id) REFERENCES lk.a (id)"
                + " ON DELETE CASCADE)",
            "CREATE TABLE lk.c (id INT PRIMARY KEY, b_id INT NOT NULL, FOREIGN KEY (b_id) REFERENCES lk.b (id)"
                + " ON DELETE CASCADE)",
            "CREATE TABLE lk.tree (id INT PRIMARY KEY, parent_id INT NULL, FOREIGN KEY (parent_id)"
                + " REFERENCES lk.tree (id) ON DELETE CASCADE)");
        Random r = new Random(11);
        List<String> tx = new ArrayList<>();
        int nextOrder = 1;
        int nextNote = 1;
        int nextChain = 1;
        int nextNode = 1;
        for (int i = 0; i < 1200; i++) {
            tx.clear();
            int o = nextOrder > 1 ? r.nextInt(nextOrder - 1) + 1 : 0; // an order that was inserted (it may be gone)
            switch (r.nextInt(9)) {
                case 0, 1 -> { // an order with its items, one INSERT each, and a note
                    int id = nextOrder++;
                    String code = (r.nextBoolean() ? "C" : "c") + id;
                    tx.add("INSERT INTO lk.orders VALUES (" + id + ", '" + code + "', 'n')");
                    for (int k = r.nextInt(4); k >= 0; k--) {
                        tx.add("INSERT INTO lk.items (order_code, qty) VALUES ('" + code.toLowerCase() + "', " + k + ")");
                    }
                    tx.add("INSERT INTO lk.notes VALUES (" + nextNote++ + ", " + id + ", 't')");
                }
                case 2 -> tx.add("UPDATE lk.orders SET code = CONCAT(code, 'x') WHERE id = " + o
                    + " AND LENGTH(code) < 14"); // the items follow
                case 3 -> tx.add("DELETE FROM lk.orders WHERE id = " + o); // items go, notes lose it
                case 4 -> tx.add("INSERT IGNORE INTO lk.orders VALUES (" + o + ", 'C" + o + "', 'again')");
                case 5 -> { // two orders swap codes through a third value, and a new item takes the old one
                    int p = nextOrder > 1 ? r.nextInt(nextOrder - 1) + 1 : 0;
                    if (p == o) {
                        continue;
                    }
                    tx.add("SET @a = NULL, @b = NULL");
                    tx.add("SELECT code INTO @a FROM lk.orders WHERE id = " + o);
                    tx.add("SELECT code INTO @b FROM lk.orders WHERE id = " + p);
                    tx.add("UPDATE lk.orders SET code = CONCAT('t', id) WHERE id = " + o + " AND @a IS NOT NULL AND"
                        + " @b IS NOT NULL");
                    tx.add("UPDATE lk.orders SET code = @a WHERE id = " + p + " AND @a IS NOT NULL AND @b IS NOT NULL");
                    tx.add("UPDATE lk.orders SET code = @b WHERE id = " + o + " AND @a IS NOT NULL AND @b IS NOT NULL");
                    tx.add("INSERT INTO lk.items (order_code, qty) SELECT code, 9 FROM lk.orders WHERE id = " + p);
                }
                case 6 -> {
                    tx.add("UPDATE lk.items SET qty = qty + 1 WHERE order_code = (SELECT code FROM lk.orders WHERE id = "
                        + o + ")");
                    tx.add("DELETE FROM lk.items WHERE id = " + (r.nextInt(3 * nextOrder) + 1));
                    tx.add("UPDATE lk.notes SET txt = 'u' WHERE id = " + (r.nextInt(nextNote) + 1));
                }
                case 7 -> { // the chain: a grandchild inserted, then its grandparent deleted, in one unit
                    int id = nextChain++;
                    tx.add("INSERT INTO lk.a VALUES (" + id + ", 0)");
                    tx.add("INSERT INTO lk.b VALUES (" + id + ", " + id + ")");
                    tx.add("INSERT INTO lk.b VALUES (" + (id + 100_000) + ", " + id + ")");
                    tx.add("INSERT INTO lk.c VALUES (" + id + ", " + id + ")");
                    int old = r.nextInt(nextChain) + 1;
                    tx.add("INSERT IGNORE INTO lk.c SELECT " + (id + 200_000) + ", id FROM lk.b WHERE id = " + old);
                    tx.add("DELETE FROM lk.b WHERE id = " + (r.nextInt(nextChain) + 100_001)); // its c rows go
                    tx.add("DELETE FROM lk.a WHERE id = " + (r.nextInt(nextChain) + 1)); // its b and c rows go
                }
                default -> { // the tree: nodes under a node, a subtree deleted
                    int id = nextNode++;
                    tx.add("INSERT INTO lk.tree VALUES (" + id + ", NULL)");
                    tx.add("INSERT IGNORE INTO lk.tree SELECT " + (id + 100_000) + ", id FROM lk.tree WHERE id = "
                        + (r.nextInt(nextNode) + 1));
                    tx.add("DELETE FROM lk.tree WHERE id = " + (r.nextInt(nextNode) + 1));
                }
            }
            SERVERS.source().execute("BEGIN; " + String.join("; ", tx) + "; COMMIT");
        }
        assertThat(SERVERS.source().queryLong("SELECT COUNT(*) FROM lk.items")).isPositive();
        assertThat(SERVERS.source().queryLong("SELECT COUNT(*) FROM lk.notes WHERE order_id IS NULL")).isPositive();
        assertThat(SERVERS.source().queryLong("SELECT COUNT(*) FROM lk.c")).isPositive();
    }

    @Test
    void groupedByKeyTheLinkedTablesMatchInBothModesAt1And8Workers() {
        for (String c : List.of("conservative:1", "optimistic:1", "conservative:8", "optimistic:8")) {
            Counts n = apply(c, c.equals("optimistic:1"));
            assertThat(n.linked.get()).as(c + ": row changes grouped by key").isPositive();
            assertThat(n.linkedStatements.get()).as(c + ": statements for %s grouped row changes", n.linked)
                .isLessThan(n.linked.get() * 2 / 3);
            assertThat(n.ordered.get()).as(c + ": the chain's and the tree's rows, in order").isPositive();
            // (lock conflicts between units in flight are retried as ever; a data conflict would redo a unit in order)
            assertThat(n.retries).as(c + ": units applied again in source order").doesNotContainKey(
                RetryPolicy.REDONE_AS_SQL);
            if (c.equals("optimistic:1")) {
                for (String t : List.of("items", "orders", "b", "c")) {
                    assertThat(multiRowInserts(t)).as("multi-row INSERTs of lk." + t).isPositive();
                }
                assertThat(general("DELETE FROM `lk`.`orders` WHERE `id` IN \\\\([0-9]+,")).as("DELETEs of lists of orders")
                    .isPositive();
                // items' primary key is their only unique key: updates that keep it go as upserts
                assertThat(general("INSERT INTO `lk`.`items` \\\\([^)]*\\\\) VALUES \\\\([^)]*\\\\),\\\\([^;]* ON DUPLICATE KEY UPDATE"))
                    .as("multi-row upserts of items").isPositive();
                for (String t : List.of("a", "tree")) {
                    assertThat(multiRowInserts(t)).as("multi-row INSERTs of lk." + t).isZero();
                    assertThat(general("INSERT INTO `lk`.`" + t + "`")).as("INSERTs of lk." + t).isPositive();
                }
            }
        }
    }

    private record Counts(AtomicLong linked, AtomicLong linkedStatements, AtomicLong ordered,
                          Map<String, AtomicLong> retries) {
    }

    private static Counts apply(String contender, boolean generalLog) {
        String mode = contender.substring(0, contender.indexOf(':'));
        int workers = Integer.parseInt(contender.substring(contender.indexOf(':') + 1));
        SERVERS.target().execute("DROP DATABASE IF EXISTS lk", "DROP DATABASE IF EXISTS binlog_applier");
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "lk", start, mode, workers,
            "  method: sql\n"), "lk", "lk");
        Counts n = new Counts(new AtomicLong(), new AtomicLong(), new AtomicLong(), new ConcurrentHashMap<>());
        if (generalLog) {
            SERVERS.target().execute("SET GLOBAL log_output = 'TABLE'", "TRUNCATE mysql.general_log",
                "SET GLOBAL general_log = ON");
        }
        Applier.Outcome o;
        try {
            o = TestApplier.runUntilCurrent(cfg, new PipelineMetrics() {
                @Override
                public void netEffect(long netRows, long statements, long orderedRows) {
                    n.ordered.addAndGet(orderedRows);
                }

                @Override
                public void linkedRows(long rows, long statements) {
                    n.linked.addAndGet(rows);
                    n.linkedStatements.addAndGet(statements);
                }

                @Override
                public void retried(String reason) {
                    n.retries.computeIfAbsent(reason, k -> new AtomicLong()).incrementAndGet();
                }
            });
        } finally {
            if (generalLog) {
                SERVERS.target().execute("SET GLOBAL general_log = OFF");
            }
        }
        TableComparison.Report r = TableComparison.compare(SERVERS.source(), SERVERS.target(), "lk");
        System.out.println(contender + ": " + o.transactions() + " transactions in " + o.units() + " units; "
            + n.linked + " row changes of linked tables in " + n.linkedStatements + " statements, " + n.ordered
            + " in order, retries " + n.retries + ": " + (r.same() ? "identical" : "DIFFERENT"));
        assertThat(r.same()).as(contender + ": " + r).isTrue();
        return n;
    }

    /** Entries of the target's general log with an INSERT of several rows into {@code lk.table}. */
    private static long multiRowInserts(String table) {
        return general("INSERT INTO `lk`.`" + table + "` \\\\([^)]*\\\\) VALUES \\\\([^)]*\\\\),\\\\(");
    }

    /** Entries of the target's general log whose text matches the regular expression {@code regexp}. */
    private static long general(String regexp) {
        return SERVERS.target().queryLong("SELECT COUNT(*) FROM mysql.general_log WHERE CONVERT(argument USING utf8mb4)"
            + " REGEXP '" + regexp.replace("'", "''") + "'");
    }
}
