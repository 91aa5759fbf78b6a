package io.binlogapplier.pipeline;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.Concurrently;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.Sysbench;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL method's net effect, and block commit on a schema with everything sysbench lacks: a
 * secondary UNIQUE key whose values swap between rows, rows inserted, updated, deleted and
 * re-inserted with the same key (and keys changed) inside one unit, a foreign key parent and child
 * with cascades, a table with a trigger, a table without a primary key. Generated once on the
 * source from several sessions, then applied into a fresh target by each contender; every table
 * must match, and the counts show what went out as net effects and how many units it took.
 */
class NetEffectIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static String start;
    private static long transactions;

    @BeforeAll
    static void generate() throws Exception {
        MariaDb source = SERVERS.source();
        start = TestApplier.currentPosition(source);
        long before = gtidSeq(source);
        source.execute("CREATE DATABASE mix",
            "CREATE TABLE mix.account (id INT PRIMARY KEY, email VARCHAR(40) NOT NULL, balance INT NOT NULL,"
                + " UNIQUE KEY u_email (email))",
            "CREATE TABLE mix.parent (id INT PRIMARY KEY, name VARCHAR(20), hits INT NOT NULL DEFAULT 0)",
            "CREATE TABLE mix.child (id INT AUTO_INCREMENT PRIMARY KEY, parent_id INT, v INT,"
                + " FOREIGN KEY (parent_id) REFERENCES mix.parent (id) ON DELETE CASCADE ON UPDATE CASCADE)",
            "CREATE TABLE mix.audit (id INT AUTO_INCREMENT PRIMARY KEY, account_id INT, delta INT)",
            // a child with triggers (its rows go as BINLOG statements) whose trigger writes its parent
            // (whose rows go as SQL): the two must reach the target in the source's order
            "CREATE TABLE mix.tchild (id INT AUTO_INCREMENT PRIMARY KEY, parent_id INT, v INT,"
                + " FOREIGN KEY (parent_id) REFERENCES mix.parent (id) ON DELETE CASCADE ON UPDATE CASCADE)",
            "CREATE TRIGGER mix.tchild_hits AFTER INSERT ON mix.tchild FOR EACH ROW"
                + " UPDATE mix.parent SET hits = hits + 1 WHERE id = NEW.parent_id",
            "CREATE TABLE mix.ledger (id INT PRIMARY KEY, amount INT NOT NULL)",
            "CREATE TRIGGER mix.ledger_audit AFTER UPDATE ON mix.ledger FOR EACH ROW"
                + " INSERT INTO mix.audit (account_id, delta) VALUES (NEW.id, NEW.amount - OLD.amount)",
            "CREATE TABLE mix.nopk (a INT, b VARCHAR(10))",
            // keyless, with an index, equal rows, NULLs and text that differs only in case
            "CREATE TABLE mix.nopk_log (k INT NOT NULL, v INT, note VARCHAR(8) NOT NULL, KEY k (k))",
            // keyless, no index, many equal rows: more copies than a unit removes
            "CREATE TABLE mix.nopk_dup (a INT NOT NULL, b CHAR(1) NOT NULL)",
            "CREATE TABLE mix.churn (k INT PRIMARY KEY, v INT NOT NULL, note VARCHAR(20))",
            // the primary key is the only unique key: rows that stay are updated in place
            "CREATE TABLE mix.inplace (id INT PRIMARY KEY, k INT NOT NULL, c VARCHAR(20), KEY k (k))");
        source.execute("USE mix; INSERT INTO mix.account SELECT seq, CONCAT('a', seq, '@x'), 100 FROM seq_1_to_50",
            "USE mix; INSERT INTO mix.ledger SELECT seq, 0 FROM seq_1_to_20",
            "USE mix; INSERT INTO mix.nopk_dup SELECT 1, 'a' FROM seq_1_to_30",
            "USE mix; INSERT INTO mix.nopk_dup SELECT 2, 'b' FROM seq_1_to_5");
        Concurrently.run(SERVERS.source(), 4, 6_000, 100, (c, r) -> {
            int k = r.nextInt(50) + 1;
            int other = r.nextInt(50) + 1;
            switch (r.nextInt(10)) {
                case 0 -> exec(c, "INSERT IGNORE INTO mix.parent (id, name) VALUES (" + r.nextInt(40) + ", 'p')");
                case 1 -> {
                    exec(c, "INSERT INTO mix.child (parent_id, v) SELECT id, 1 FROM mix.parent WHERE id = "
                        + r.nextInt(40));
                    int p = r.nextInt(40);
                    exec(c, "INSERT IGNORE INTO mix.parent (id, name) VALUES (" + p + ", 'q')");
                    exec(c, "INSERT INTO mix.tchild (parent_id, v) VALUES (" + p + ", 2)");
                }
                case 2 -> exec(c, "DELETE FROM mix.parent WHERE id = " + r.nextInt(40));
                case 3 -> exec(c, "UPDATE mix.parent SET id = id + 40 WHERE id = " + r.nextInt(40) + " AND id < 40");
                case 4 -> exec(c, "UPDATE mix.ledger SET amount = amount + 1 WHERE id = " + (r.nextInt(20) + 1));
                case 5 -> {
                    exec(c, "INSERT INTO mix.nopk VALUES (" + r.nextInt(40) + ", 'x')");
                    exec(c, "DELETE FROM mix.nopk WHERE a = " + r.nextInt(40) + " LIMIT 1");
                    int g = r.nextInt(12);
                    exec(c, "INSERT INTO mix.nopk_log VALUES (" + g + ", " + (r.nextInt(4) == 0 ? "NULL" : r.nextInt(3))
                        + ", '" + (r.nextBoolean() ? "x" : "X") + "')");
                    exec(c, "UPDATE mix.nopk_log SET v = v + 1 WHERE k = " + r.nextInt(12));
                    exec(c, "DELETE FROM mix.nopk_log WHERE k = " + r.nextInt(12) + " LIMIT 1");
                    switch (r.nextInt(3)) {
                        case 0 -> exec(c, "DELETE FROM mix.nopk_dup WHERE a = " + (1 + r.nextInt(2)) + " LIMIT 1");
                        case 1 -> exec(c, "INSERT INTO mix.nopk_dup VALUES (" + (1 + r.nextInt(2)) + ", 'a')");
                        default -> exec(c, "UPDATE mix.nopk_dup SET a = 3 - a WHERE b = '" + (r.nextBoolean() ? "a" : "b")
                            + "' LIMIT " + (1 + r.nextInt(3)));
                    }
                }
                case 6 -> {
                    // Swap two accounts' e-mail addresses in one transaction, through a free value.
                    if (k != other) {
                        c.setAutoCommit(false);
                        try {
                            exec(c, "SELECT email INTO @e1 FROM mix.account WHERE id = " + k + " FOR UPDATE");
                            exec(c, "SELECT email INTO @e2 FROM mix.account WHERE id = " + other + " FOR UPDATE");
                            exec(c, "UPDATE mix.account SET email = CONCAT('tmp', id) WHERE id = " + k);
                            exec(c, "UPDATE mix.account SET email = @e1 WHERE id = " + other);
                            exec(c, "UPDATE mix.account SET email = @e2, balance = balance - 1 WHERE id = " + k);
                            c.commit();
                        } catch (SQLException e) {
                            c.rollback();
                            throw e;
                        } finally {
                            c.setAutoCommit(true);
                        }
                    }
                }
                case 7 -> exec(c, "UPDATE mix.account SET balance = balance + 1 WHERE id = " + k);
                default -> {
                    // Same key, many lives, across small transactions that land in one unit.
                    int key = r.nextInt(30);
                    exec(c, "INSERT INTO mix.churn VALUES (" + key + ", 1, 'new') ON DUPLICATE KEY UPDATE v = v + 1");
                    exec(c, "UPDATE mix.churn SET v = v * 2, note = 'upd' WHERE k = " + key);
                    if (r.nextBoolean()) {
                        exec(c, "DELETE FROM mix.churn WHERE k = " + key);
                        exec(c, "INSERT INTO mix.churn VALUES (" + key + ", 7, 'again')");
                    }
                    if (r.nextInt(4) == 0) {
                        exec(c, "UPDATE mix.churn SET k = k + 100 WHERE k = " + key);
                        exec(c, "DELETE FROM mix.churn WHERE k = " + (key + 100) + " AND v > 10");
                    }
                }
            }
        });
        source.execute("USE mix; INSERT INTO mix.inplace SELECT seq, seq MOD 7, 'c0' FROM seq_1_to_40");
        java.util.Random random = new java.util.Random(11);
        for (int i = 0; i < 400; i++) {
            int id = random.nextInt(40) + 1;
            if (i % 20 == 0) {
                // updated and updated back in one transaction: its net effect changes nothing
                source.execute("BEGIN; SELECT c INTO @was FROM mix.inplace WHERE id = " + id + ";"
                    + " UPDATE mix.inplace SET c = 'tmp' WHERE id = " + id + ";"
                    + " UPDATE mix.inplace SET c = @was WHERE id = " + id + "; COMMIT");
            } else {
                source.execute("UPDATE mix.inplace SET c = CONCAT('c', " + i + ")" + (i % 3 == 0 ? ", k = k + 1" : "")
                    + " WHERE id = " + id);
            }
        }
        // One transaction that swaps unique values back and forth and re-inserts a key.
        source.execute("BEGIN; SELECT email INTO @e1 FROM mix.account WHERE id = 1;"
            + " SELECT email INTO @e2 FROM mix.account WHERE id = 2;"
            + " UPDATE mix.account SET email = 'swap' WHERE id = 1; UPDATE mix.account SET email = @e1 WHERE id = 2;"
            + " UPDATE mix.account SET email = @e2 WHERE id = 1;"
            + " DELETE FROM mix.churn WHERE k = 5; INSERT INTO mix.churn VALUES (5, 55, 'tx');"
            + " UPDATE mix.churn SET v = 56 WHERE k = 5; COMMIT");
        transactions = gtidSeq(source) - before;
        assertThat(SERVERS.source().queryLong("SELECT COUNT(*) FROM mix.child")).isPositive();
        assertThat(SERVERS.source().queryLong("SELECT COUNT(*) FROM mix.audit")).isPositive();
        assertThat(SERVERS.source().queryLong("SELECT COUNT(*) FROM mix.tchild")).isPositive();
        assertThat(SERVERS.source().queryLong("SELECT COUNT(*) FROM mix.nopk_log GROUP BY k, v, note"
            + " HAVING COUNT(*) > 1 LIMIT 1")).as("equal rows in the keyless table").isGreaterThan(1);
    }

    @Test
    void sqlMethodNetEffectMatchesTheSourceInEveryModeAt1And8Workers() {
        for (String c : List.of("conservative:1", "conservative:8", "optimistic:1", "optimistic:8")) {
            Counts n = apply(c, "  method: sql\n");
            assertThat(n.netRows.get()).as(c + ": row changes applied as net effects").isPositive();
            assertThat(n.netStatements.get()).as(c + ": fewer statements than row changes")
                .isLessThan(n.netRows.get() / 2);
            assertThat(n.linkedRows.get()).as(c + ": the FK tables' rows went grouped by key").isPositive();
            assertThat(n.linkedStatements.get()).as(c + ": fewer statements than FK row changes")
                .isLessThan(n.linkedRows.get());
        }
    }

    @Test
    void sysbenchWriteOnlyAsNetEffectsMatchesInEveryModeAt1And8Workers() {
        String sbStart = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE sbnet");
        Sysbench.run(SERVERS.source(), "sbnet", "oltp_write_only", "prepare", "--tables=2", "--table-size=2000");
        Sysbench.run(SERVERS.source(), "sbnet", "oltp_write_only", "run", "--tables=2", "--table-size=2000",
            "--threads=8", "--time=3");
        for (String c : List.of("conservative:1", "conservative:8", "optimistic:1", "optimistic:8")) {
            String mode = c.substring(0, c.indexOf(':'));
            int workers = Integer.parseInt(c.substring(c.indexOf(':') + 1));
            SERVERS.target().execute("DROP DATABASE IF EXISTS sbnet", "DROP DATABASE IF EXISTS mix",
                "DROP DATABASE IF EXISTS binlog_applier");
            AtomicLong netRows = new AtomicLong();
            Applier.Outcome o = TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(
                SERVERS.servers(), "sbnet", sbStart, mode, workers, "  method: sql\n"), "net", "sbnet"),
                new PipelineMetrics() {
                    @Override
                    public void netEffect(long rows, long statements, long orderedRows) {
                        netRows.addAndGet(rows);
                    }
                });
            TableComparison.Report r = TableComparison.compare(SERVERS.source(), SERVERS.target(), "sbnet");
            System.out.println("sysbench " + c + ": " + o.transactions() + " transactions in " + o.units() + " units, "
                + netRows + " row changes as net effects: " + (r.same() ? "identical" : "DIFFERENT"));
            assertThat(r.same()).as(c + ": " + r).isTrue();
            assertThat(netRows.get()).as(c).isPositive();
        }
    }

    @Test
    void serialApplyKeepsBlockCommitOnKeylessForeignKeyAndTriggerTables() {
        Counts n = apply("optimistic:1", "  method: sql\n");
        assertThat(n.barriers.get()).as("no barrier after the schema is created (14 DDL statements)").isLessThanOrEqualTo(14);
        assertThat(n.units.get()).as("units for " + transactions + " transactions").isLessThan(transactions / 20);
    }

    @Test
    void aKeylessTableIsAppliedAsItsNetEffectPerRowValue() {
        SERVERS.target().execute("DROP DATABASE IF EXISTS mix", "DROP DATABASE IF EXISTS sbnet",
            "DROP DATABASE IF EXISTS binlog_applier");
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "net", start, "optimistic",
            1, "  method: sql\n") + "filter:\n  include: [\"mix.nopk_*\"]\n", "net", "net");
        AtomicLong net = new AtomicLong();
        AtomicLong statements = new AtomicLong();
        AtomicLong ordered = new AtomicLong();
        TestApplier.runUntilCurrent(cfg, new PipelineMetrics() {
            @Override
            public void netEffect(long netRows, long netStatements, long orderedRows) {
                net.addAndGet(netRows);
                statements.addAndGet(netStatements);
                ordered.addAndGet(orderedRows);
            }
        });
        for (String t : List.of("mix.nopk_log", "mix.nopk_dup")) {
            assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + t)).as(t)
                .isEqualTo(SERVERS.source().queryLong("SELECT COUNT(*) FROM " + t));
            assertThat(checksumOf(SERVERS.target(), "CHECKSUM TABLE " + t)).as(t)
                .isEqualTo(checksumOf(SERVERS.source(), "CHECKSUM TABLE " + t));
        }
        System.out.println("keyless: " + net + " row changes in " + statements + " statements, " + ordered
            + " in order");
        assertThat(ordered.get()).as("row changes applied one by one").isZero();
        assertThat(statements.get()).as("statements for %s row changes", net).isLessThan(net.get() / 2);
    }

    /**
     * A table whose primary key is its only unique key: a row that existed and still does is updated
     * in place (INSERT … ON DUPLICATE KEY UPDATE), not deleted and inserted again, and the table
     * still matches.
     */
    @Test
    void rowsOfATableWithOneUniqueKeyAreUpdatedInPlaceNotDeletedAndInsertedAgain() {
        SERVERS.target().execute("DROP DATABASE IF EXISTS mix", "DROP DATABASE IF EXISTS sbnet",
            "DROP DATABASE IF EXISTS binlog_applier");
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "net", start, "conservative",
            1, "  method: sql\n") + "filter:\n  include: [\"mix.inplace\"]\n", "net", "net");
        AtomicLong net = new AtomicLong();
        AtomicLong ordered = new AtomicLong();
        long deletesBefore = handler("Handler_delete");
        long updatesBefore = handler("Handler_update");
        TestApplier.runUntilCurrent(cfg, new PipelineMetrics() {
            @Override
            public void netEffect(long netRows, long netStatements, long orderedRows) {
                net.addAndGet(netRows);
                ordered.addAndGet(orderedRows);
            }
        });
        long deleted = handler("Handler_delete") - deletesBefore;
        long updated = handler("Handler_update") - updatesBefore;
        assertThat(checksumOf(SERVERS.target(), "CHECKSUM TABLE mix.inplace"))
            .isEqualTo(checksumOf(SERVERS.source(), "CHECKSUM TABLE mix.inplace"));
        System.out.println("in place: " + net + " row changes, " + ordered + " in order, target deleted " + deleted
            + " rows and updated " + updated);
        assertThat(ordered.get()).as("row changes applied one by one").isZero();
        assertThat(net.get()).isGreaterThanOrEqualTo(400);
        // Deleted and inserted again: only a row whose unit left it as it was (20 transactions update a
        // row and back); deleting every row that existed would be at least 40 rows per unit.
        assertThat(deleted).as("rows the target deleted").isLessThanOrEqualTo(20);
        assertThat(updated).as("rows the target updated (the position row's updates included)").isPositive();
    }

    /**
     * A queue table: jobs inserted and deleted again within a unit leave no row, but moved the
     * source's AUTO_INCREMENT counter; the target's must follow (a promoted replica must not hand out
     * the ids of jobs that were taken).
     */
    @Test
    void aQueueTablesAutoIncrementCounterFollowsTheSourceThoughItsJobsComeAndGoInOneUnit() {
        // Other tests here apply the whole binlog from their start: the schema is left off the target after.
        SERVERS.target().execute("DROP DATABASE IF EXISTS queue");
        String startHere = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("DROP DATABASE IF EXISTS queue", "CREATE DATABASE queue",
            "CREATE TABLE queue.q (id INT AUTO_INCREMENT PRIMARY KEY, job VARCHAR(20) NOT NULL) ENGINE=InnoDB",
            "INSERT INTO queue.q (job) VALUES ('stays 1'), ('stays 2')");
        String[] jobs = new String[60];
        for (int i = 0; i < 30; i++) {
            jobs[2 * i] = "INSERT INTO queue.q (job) VALUES ('job " + i + "')";
            jobs[2 * i + 1] = "DELETE FROM queue.q WHERE job = 'job " + i + "'";
        }
        SERVERS.source().execute(jobs);
        AtomicLong net = new AtomicLong();
        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "queue", startHere,
            "conservative", 1, "  method: sql\n") + "filter:\n  include: [\"queue.*\"]\n", "net", "queue"),
            new PipelineMetrics() {
                @Override
                public void netEffect(long netRows, long netStatements, long orderedRows) {
                    net.addAndGet(netRows);
                }
            });

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "queue");
        assertThat(net.get()).as("row changes applied as net effects").isGreaterThanOrEqualTo(60);
        String counter = "SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'queue'"
            + " AND TABLE_NAME = 'q'";
        assertThat(SERVERS.target().queryLong(counter)).as("the target's AUTO_INCREMENT counter")
            .isEqualTo(SERVERS.source().queryLong(counter)).isEqualTo(33);
        SERVERS.target().execute("DROP DATABASE queue");
    }

    private static long handler(String name) {
        return SERVERS.target().globalStatus(name);
    }

    private static long checksumOf(MariaDb m, String sql) {
        try (Connection c = m.connect(); Statement s = c.createStatement(); var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(2);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theBinlogMethodAndTheOrderedSqlMethodMatchTooAt8Workers() {
        apply("optimistic:8", "  method: binlog\n");
        Counts ordered = apply("conservative:8", "  method: sql\n  net_effect: false\n");
        assertThat(ordered.netRows.get()).isZero();
        assertThat(ordered.linkedRows.get()).as("FK rows grouped with net_effect: false").isZero();
    }

    private record Counts(AtomicLong netRows, AtomicLong netStatements, AtomicLong orderedRows, AtomicLong linkedRows,
                          AtomicLong linkedStatements, AtomicLong barriers, AtomicLong units) {
    }

    private static Counts apply(String contender, String extra) {
        String mode = contender.substring(0, contender.indexOf(':'));
        int workers = Integer.parseInt(contender.substring(contender.indexOf(':') + 1));
        SERVERS.target().execute("DROP DATABASE IF EXISTS mix", "DROP DATABASE IF EXISTS sbnet",
            "DROP DATABASE IF EXISTS binlog_applier");
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "net", start, mode,
            workers, extra), "net", "net");
        Counts n = new Counts(new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong(),
            new AtomicLong(), new AtomicLong());
        Applier.Outcome o = TestApplier.runUntilCurrent(cfg, new PipelineMetrics() {
            @Override
            public void netEffect(long netRows, long statements, long orderedRows) {
                n.netRows.addAndGet(netRows);
                n.netStatements.addAndGet(statements);
                n.orderedRows.addAndGet(orderedRows);
            }

            @Override
            public void linkedRows(long rows, long statements) {
                n.linkedRows.addAndGet(rows);
                n.linkedStatements.addAndGet(statements);
            }

            @Override
            public void barrier(String cause) {
                n.barriers.incrementAndGet();
            }

            @Override
            public void unitCommitted(int transactions, long rows, long bytes) {
                n.units.incrementAndGet();
            }
        });
        TableComparison.Report r = TableComparison.compare(SERVERS.source(), SERVERS.target(), "mix");
        System.out.println(contender + extra.replace('\n', ' ') + ": " + o.transactions() + " transactions in "
            + o.units() + " units, " + o.millis() + " ms; net effect " + n.netRows + " row changes in "
            + n.netStatements + " statements, " + n.orderedRows + " in order, " + n.linkedRows + " of FK tables in "
            + n.linkedStatements + " statements, " + n.barriers + " barriers: "
            + (r.same() ? "identical" : "DIFFERENT"));
        assertThat(r.same()).as(contender + " " + extra + ": " + r).isTrue();
        return n;
    }

    private static long gtidSeq(MariaDb source) {
        String pos = source.queryString("SELECT @@gtid_binlog_pos");
        return pos == null || pos.isEmpty() ? 0 : Long.parseLong(pos.substring(pos.lastIndexOf('-') + 1));
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
