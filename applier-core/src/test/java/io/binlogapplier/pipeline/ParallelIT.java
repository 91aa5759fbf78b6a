package io.binlogapplier.pipeline;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.Concurrently;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.Sysbench;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.schedule.ContendedTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parallel apply against real servers: each workload is generated once on the source, then applied
 * from the same start into a fresh target database by every mode at 1, 4 and 16 workers; every
 * table must match each time.
 */
class ParallelIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    static final List<String> CONTENDERS = List.of("conservative:1", "conservative:4", "conservative:16",
        "optimistic:1", "optimistic:4", "optimistic:16");

    @Test
    void sysbenchWriteOnlyAt16Threads() {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE sb");
        Sysbench.run(SERVERS.source(), "sb", "oltp_write_only", "prepare", "--tables=4", "--table-size=10000");
        Sysbench.run(SERVERS.source(), "sb", "oltp_write_only", "run", "--tables=4", "--table-size=10000",
            "--threads=16", "--time=6");
        applyWithEveryContender(start, "sb", "binlog");
    }

    @Test
    void hotRowsForceConflicts() {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE hot");
        Sysbench.run(SERVERS.source(), "hot", "oltp_update_non_index", "prepare", "--tables=4", "--table-size=10");
        Sysbench.run(SERVERS.source(), "hot", "oltp_update_non_index", "run", "--tables=4", "--table-size=10",
            "--threads=16", "--time=4");
        applyWithEveryContender(start, "hot", "sql");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "apply.method {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"binlog", "sql"})
    void aTransactionThatSharesAKeyWithTheTailGoesAfterItWhileAnEarlierUnitIsInFlight(String method) {
        // Units of 2: unit 1 updates 20,000 rows and row 1 of hot, so it is still in flight when unit 2 (t1, t2:
        // both set row 1's c) is scheduled. t1 shares row 1 with unit 1: it goes to unit 2's tail. t2 shares row
        // 1 with t1: it must go to the tail too, after t1. Applied before t1 it would leave c = 't1', or, had it
        // taken row 1's lock before unit 1, make the conflict monitor roll unit 2 back to apply it in source order
        // (no tail counted then).
        String db = "tail_" + method;
        SERVERS.target().execute("DROP DATABASE IF EXISTS binlog_applier");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".hot (id INT PRIMARY KEY, c VARCHAR(10))",
            "CREATE TABLE " + db + ".bulk (id INT PRIMARY KEY, v INT)",
            "INSERT INTO " + db + ".hot VALUES (1, 'a'), (2, 'a')",
            "USE " + db + "; INSERT INTO bulk SELECT seq, 0 FROM seq_1_to_20000");
        String apply = "  method: " + method + "\n  unit_max_transactions: 2\n";
        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "tl", start,
            "optimistic", 4, apply), "t", "tl"));
        SERVERS.source().execute("BEGIN; UPDATE " + db + ".bulk SET v = v + 1; UPDATE " + db + ".hot SET c = 'u1'"
                + " WHERE id = 1; COMMIT",
            "UPDATE " + db + ".hot SET c = 'u2' WHERE id = 2",
            "UPDATE " + db + ".hot SET c = 't1' WHERE id = 1",
            "UPDATE " + db + ".hot SET c = 't2' WHERE id = 1");
        java.util.concurrent.atomic.AtomicLong tail = new java.util.concurrent.atomic.AtomicLong();
        PipelineMetrics counting = new PipelineMetrics() {
            @Override
            public void tailApplied(int transactions) {
                tail.addAndGet(transactions);
            }
        };

        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "tl", start,
            "optimistic", 4, apply), "t", "tl"), counting);

        assertThat(SERVERS.target().queryString("SELECT c FROM " + db + ".hot WHERE id = 1")).isEqualTo("t2");
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(tail.get()).as("t1 and t2 went to unit 2's tail").isEqualTo(2);
    }

    @Test
    void foreignKeyCascadesUnderConcurrentWriters() throws Exception {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE fk",
            "CREATE TABLE fk.parent (id INT PRIMARY KEY, name VARCHAR(20), hits INT NOT NULL DEFAULT 0)",
            "CREATE TABLE fk.child (id INT AUTO_INCREMENT PRIMARY KEY, parent_id INT, v INT,"
                + " FOREIGN KEY (parent_id) REFERENCES fk.parent (id) ON DELETE CASCADE ON UPDATE CASCADE)",
            "CREATE TABLE fk.nopk (a INT, b VARCHAR(10))");
        Concurrently.run(SERVERS.source(), 8, 4_000, 0, (c, r) -> {
            int p = r.nextInt(40);
            switch (r.nextInt(6)) {
                case 0 -> exec(c, "INSERT IGNORE INTO fk.parent (id, name) VALUES (?, 'p')", p);
                case 1, 2 -> exec(c, "INSERT INTO fk.child (parent_id, v) SELECT id, 1 FROM fk.parent WHERE id = ?", p);
                case 3 -> exec(c, "DELETE FROM fk.parent WHERE id = ?", p);
                case 4 -> exec(c, "UPDATE fk.parent SET id = id + 40 WHERE id = ? AND id < 40", p);
                default -> {
                    exec(c, "UPDATE fk.parent SET hits = hits + 1 WHERE id = ?", p);
                    exec(c, "INSERT INTO fk.nopk VALUES (?, 'x')", p);
                    exec(c, "DELETE FROM fk.nopk WHERE a = ? LIMIT 1", r.nextInt(40));
                }
            }
        });
        assertThat(SERVERS.source().queryLong("SELECT COUNT(*) FROM fk.child")).isPositive();
        applyWithEveryContender(start, "fk", "sql");
        applyWithEveryContender(start, "fk", "binlog");
    }

    @Test
    void anEarlierUnitWaitingForALaterUnitsLockMakesTheLaterOneRetry() {
        // E updates grandchild 1 after slow work; L (later) deletes parent 1, whose two-level cascade locks
        // grandchild 1 first. No key of E's names parent 1 (only child 1, one level up), so write sets see no
        // conflict; each transaction is its own unit, so L runs beside E and the safety net must act.
        SERVERS.target().execute("DROP DATABASE IF EXISTS binlog_applier");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE lockwait",
            "CREATE TABLE lockwait.parent (id INT PRIMARY KEY)",
            "CREATE TABLE lockwait.child (id INT PRIMARY KEY, parent_id INT,"
                + " FOREIGN KEY (parent_id) REFERENCES lockwait.parent (id) ON DELETE CASCADE)",
            "CREATE TABLE lockwait.grandchild (id INT PRIMARY KEY, child_id INT, v INT,"
                + " FOREIGN KEY (child_id) REFERENCES lockwait.child (id) ON DELETE CASCADE)",
            "CREATE TABLE lockwait.bulk (id INT PRIMARY KEY, pad CHAR(200))",
            "INSERT INTO lockwait.parent VALUES (1)", "INSERT INTO lockwait.child VALUES (1, 1)",
            "INSERT INTO lockwait.grandchild VALUES (1, 1, 0)");
        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "lw", start,
            "optimistic", 1, null), "t", "lw"));
        SERVERS.source().execute("USE lockwait; BEGIN; INSERT INTO lockwait.bulk SELECT seq, 'x' FROM seq_1_to_20000;"
            + " UPDATE lockwait.grandchild SET v = 1 WHERE id = 1; COMMIT", "DELETE FROM lockwait.parent WHERE id = 1");
        List<String> retries = new java.util.concurrent.CopyOnWriteArrayList<>();
        PipelineMetrics counting = new PipelineMetrics() {
            @Override
            public void retried(String reason) {
                retries.add(reason);
            }
        };

        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "lw", start,
            "optimistic", 2, "  method: sql\n  unit_max_transactions: 1\n"), "t", "lw"), counting);

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "lockwait");
        // The safety net preempts the later unit; without it the earlier one would wait out
        // innodb_lock_wait_timeout and retry as lock_wait_timeout. The reasons say which happened, where a
        // wall-clock bound on the whole run would also count a slow machine's start-up.
        assertThat(retries).as("the later unit gave way").contains("preempted")
            .doesNotContain("lock_wait_timeout", "deadlock");
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "apply.method {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"binlog", "sql"})
    @SuppressWarnings("try") // BackgroundApplier's close waits for its thread
    void aTableThatLockConflictsKeepNamingGetsATableKeyAndItsChangesStopConflicting(String method) throws Exception {
        // Each round: D deletes the row of email rNa (its index entry stays, delete-marked: a read view held open on
        // the target keeps purge away); E, after slow work, takes rNa again, and InnoDB's duplicate check locks the
        // delete-marked entry and the one after it, rNb; L (later) deletes the row of rNb. E and L share no key, so
        // L runs beside E, takes rNb first, and E (earlier) waits for it: the monitor rolls L back. The third such
        // conflict on u makes u contended: then D, E and L share u's table key, L goes to its unit's tail, and
        // nothing conflicts.
        String db = "cont_" + method;
        SERVERS.target().execute("DROP DATABASE IF EXISTS binlog_applier");
        String start = TestApplier.currentPosition(SERVERS.source());
        StringBuilder rows = new StringBuilder();
        for (int round = 1; round <= 12; round++) {
            rows.append(round == 1 ? "" : ",").append("(").append(10 * round + 1).append(", 'r").append(round)
                .append("a'), (").append(10 * round + 2).append(", 'r").append(round).append("b')");
        }
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".u (id INT PRIMARY KEY, email VARCHAR(20) NOT NULL, UNIQUE KEY (email))",
            "CREATE TABLE " + db + ".bulk (id INT PRIMARY KEY, v INT)",
            "INSERT INTO " + db + ".u VALUES " + rows,
            "USE " + db + "; INSERT INTO bulk SELECT seq, 0 FROM seq_1_to_20000");
        String apply = "  method: " + method + "\n  unit_max_transactions: 1\n";
        TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "ct", start,
            "optimistic", 1, apply), "t", "ct"));
        java.util.concurrent.atomic.AtomicLong lockWaits = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong contended = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong tail = new java.util.concurrent.atomic.AtomicLong();
        PipelineMetrics counting = new PipelineMetrics() {
            @Override
            public void conflict(String reason) {
                if (reason.equals("lock_wait")) {
                    lockWaits.incrementAndGet();
                }
            }

            @Override
            public void tableContended() {
                contended.incrementAndGet();
            }

            @Override
            public void tailApplied(int transactions) {
                tail.addAndGet(transactions);
            }
        };
        try (Connection snapshot = SERVERS.target().connect(); java.sql.Statement s = snapshot.createStatement();
             BackgroundApplier applier = new BackgroundApplier(new ConfigLoader().parse(TestApplier.yaml(
                 SERVERS.servers(), "ct", start, "optimistic", 4, apply), "t", "ct"), counting, "contended-test")) {
            s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
            s.executeQuery("SELECT COUNT(*) FROM " + db + ".u").close();
            int round = 0;
            // a round that does not conflict (L slower than E) counts for nothing; the table must get there
            while (contended.get() == 0 && round < 9) {
                round(db, ++round, applier);
            }
            assertThat(contended.get()).as("u contended after " + round + " rounds").isEqualTo(1);
            assertThat(lockWaits.get()).as("conflicts naming u until then").isEqualTo(ContendedTables.CONFLICTS);
            long tailBefore = tail.get();
            round(db, ++round, applier);
            round(db, ++round, applier);
            assertThat(lockWaits.get()).as("no conflict once u is contended").isEqualTo(ContendedTables.CONFLICTS);
            assertThat(tail.get() - tailBefore).as("L of each of the last two rounds waited in its unit's tail")
                .isGreaterThanOrEqualTo(2);
            s.execute("COMMIT");
        }
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
    }

    /** One round of {@link #aTableThatLockConflictsKeepNamingGetsATableKeyAndItsChangesStopConflicting}, applied. */
    private static void round(String db, int n, BackgroundApplier applier) throws InterruptedException {
        SERVERS.source().execute("DELETE FROM " + db + ".u WHERE id = " + (10 * n + 1),
            "BEGIN; UPDATE " + db + ".bulk SET v = v + 1; INSERT INTO " + db + ".u VALUES (" + (10 * n + 3) + ", 'r"
                + n + "a'); COMMIT",
            "DELETE FROM " + db + ".u WHERE id = " + (10 * n + 2));
        BackgroundApplier.await("round " + n + " applied", 60, () -> SERVERS.target().queryLong(
            "SELECT COUNT(*) FROM " + db + ".u WHERE id IN (" + (10 * n + 2) + ", " + (10 * n + 3) + ")") == 1
            && SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".u WHERE id = " + (10 * n + 3)) == 1,
            applier.failure);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} mode, 4 workers, apply.method {1}")
    @org.junit.jupiter.params.provider.CsvSource({"optimistic, sql", "optimistic, binlog", "conservative, binlog"})
    void aFatalErrorInOneUnitStopsEveryWorkerAndNoLaterUnitCommits(String mode, String method) {
        // 3,000 independent single-row transactions over 4 tables (nothing for write sets to serialise), the
        // 1,500th meets a row planted on the target: a real duplicate key. Units after it run on the other
        // workers meanwhile; none of them may commit, and the position must stay where the rows stop.
        String db = "fc_" + mode + "_" + method;
        SERVERS.target().execute("DROP DATABASE IF EXISTS binlog_applier");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db);
        for (int t = 0; t < 4; t++) {
            SERVERS.source().execute("CREATE TABLE " + db + ".t" + t + " (id INT PRIMARY KEY, v VARCHAR(20))");
        }
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, mode, 4,
            "  method: " + method + "\n  unit_max_transactions: 10\n"), "parallel", db);
        TestApplier.runUntilCurrent(cfg);
        int failing = 1_500;
        SERVERS.target().execute("INSERT INTO " + db + ".t" + failing % 4 + " VALUES (" + failing + ", 'planted')");
        StringBuilder script = new StringBuilder();
        for (int i = 1; i <= 3_000; i++) {
            script.append("INSERT INTO ").append(db).append(".t").append(i % 4).append(" VALUES (").append(i)
                .append(", 'row ").append(i).append("');\n");
        }
        SERVERS.source().runScript(script.toString());

        io.binlogapplier.ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(io.binlogapplier.ExitCode.TARGET_DATA_CONFLICT);
        assertThat(e.getMessage()).contains("Duplicate entry '" + failing + "'");
        String union = "SELECT id FROM " + db + ".t0 UNION ALL SELECT id FROM " + db + ".t1 UNION ALL SELECT id FROM "
            + db + ".t2 UNION ALL SELECT id FROM " + db + ".t3";
        long committed = SERVERS.target().queryLong("SELECT COUNT(*) FROM (" + union + ") u WHERE id <> " + failing);
        long highest = SERVERS.target().queryLong("SELECT COALESCE(MAX(id), 0) FROM (" + union + ") u WHERE id <> "
            + failing);
        System.out.println(db + ": stopped with " + committed + " rows committed, the failing transaction is "
            + failing);
        assertThat(highest).as("no unit after the failing one committed").isLessThan(failing);
        assertThat(committed).as("the committed rows are a prefix of the source's order").isEqualTo(highest);

        // The position is that prefix's end: with the planted row gone, a restart applies the rest exactly once.
        SERVERS.target().execute("DELETE FROM " + db + ".t" + failing % 4 + " WHERE id = " + failing);
        TestApplier.runUntilCurrent(cfg);
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
    }

    private static void applyWithEveryContender(String start, String db, String method) {
        for (String c : CONTENDERS) {
            String mode = c.substring(0, c.indexOf(':'));
            int workers = Integer.parseInt(c.substring(c.indexOf(':') + 1));
            SERVERS.target().execute("DROP DATABASE IF EXISTS " + db, "DROP DATABASE IF EXISTS binlog_applier");
            ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "par", start, mode,
                workers, "  method: " + method + "\n"), "parallel", "par");
            Applier.Outcome o = TestApplier.runUntilCurrent(cfg);
            TableComparison.Report r = TableComparison.compare(SERVERS.source(), SERVERS.target(), db);
            System.out.println(db + " " + method + " " + c + ": " + o.transactions() + " transactions in " + o.units()
                + " units, " + o.millis() + " ms: " + (r.same() ? "identical" : "DIFFERENT"));
            assertThat(r.same()).as(db + " " + method + " " + c + ": " + r).isTrue();
        }
    }

    private static void exec(Connection c, String sql, int arg) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, arg);
            ps.executeUpdate();
        }
    }
}
