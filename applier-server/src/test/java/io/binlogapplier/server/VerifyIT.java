package io.binlogapplier.server;

import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.pipeline.Applier;
import io.binlogapplier.pipeline.PipelineMetrics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code verify} against a real source and target: schema {@code vsrc} is applied renamed to
 * {@code vdst}, {@code vsrc.skipped} is excluded. Tables with a primary key, a composite one, a unique
 * key only, and none. The applier is stopped (the target is static) except in the test that runs it
 * beside a writing client.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VerifyIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final String FILTER = "filter:\n  exclude: [\"vsrc.skipped\"]\n  rename: { vsrc: vdst }\n";
    private static String start;

    @BeforeAll
    static void appliedTables() {
        String[] tables = {
            "CREATE TABLE %s.keyed (id INT PRIMARY KEY, v VARCHAR(40), n INT NULL, note TEXT CHARACTER SET latin1)",
            "CREATE TABLE %s.composite (a INT, b VARCHAR(10), v VARBINARY(20), PRIMARY KEY (a, b))",
            "CREATE TABLE %s.uniq (id INT NOT NULL, v INT, maybe INT NULL, UNIQUE KEY u_maybe (maybe), UNIQUE KEY u_id (id))",
            "CREATE TABLE %s.nokey (x INT, y VARCHAR(20))",
            "CREATE TABLE %s.busy (id INT PRIMARY KEY, v INT NOT NULL)"};
        SERVERS.source().execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE vsrc",
            "CREATE TABLE vsrc.skipped (id INT PRIMARY KEY)");
        SERVERS.target().execute("CREATE DATABASE vdst");
        for (String t : tables) {
            SERVERS.source().execute("SET SESSION sql_log_bin = 0", String.format(t, "vsrc"));
            SERVERS.target().execute(String.format(t, "vdst"));
        }
        start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute(
            "INSERT INTO vsrc.keyed SELECT seq, CONCAT('v', seq), IF(seq % 3 = 0, NULL, seq), IF(seq % 5 = 0, NULL,"
                + " 'caf\u00e9 #') FROM vsrc.seq_1_to_1000",
            "INSERT INTO vsrc.composite SELECT seq DIV 3, CONCAT('b', seq % 3), UNHEX(MD5(seq)) FROM vsrc.seq_1_to_300",
            "INSERT INTO vsrc.uniq SELECT seq, seq * 2, NULL FROM vsrc.seq_1_to_250",
            "INSERT INTO vsrc.nokey VALUES (1, 'a'), (1, 'a'), (2, NULL), (NULL, 'b')",
            "INSERT INTO vsrc.busy SELECT seq, 0 FROM vsrc.seq_1_to_2000",
            "INSERT INTO vsrc.skipped SELECT seq FROM vsrc.seq_1_to_10");
        applyAll();
    }

    private static String yaml() {
        return TestApplier.yaml(SERVERS.servers(), "verify", start, "conservative", 2, null) + FILTER
            + "verify:\n  chunk_rows: 100\n  rows_per_second: 0\n";
    }

    private static void applyAll() {
        TestApplier.runUntilCurrent(new ConfigLoader().parse(yaml(), "test", "verify"));
    }

    private static InProcessCli.Output verify(String... extra) {
        Path cfg = Configs.write(yaml());
        String[] args = new String[3 + extra.length];
        args[0] = "verify";
        args[1] = "--config";
        args[2] = cfg.toString();
        System.arraycopy(extra, 0, args, 3, extra.length);
        InProcessCli.Output out = InProcessCli.main(args);
        System.out.println("$ binlog-applier verify " + String.join(" ", extra) + " → " + out.code() + "\n" + out.text());
        return out;
    }

    @Test
    @Order(1)
    void identicalTablesMatchUnderTheirRenamedNamesAndTheExcludedTableIsLeftOut() {
        InProcessCli.Output out = verify();

        assertThat(out.code()).as(out.text()).isZero();
        assertThat(out.line("vsrc.keyed")).contains("vdst.keyed").contains("1000").contains(" 11 ").contains("MATCH");
        assertThat(out.line("vsrc.composite")).contains("vdst.composite").contains("300").contains("MATCH");
        assertThat(out.line("vsrc.uniq")).contains("250").contains("MATCH");
        assertThat(out.line("vsrc.nokey")).contains(" 4 ").contains(" 1 ").contains("MATCH");
        assertThat(out.text()).doesNotContain("skipped").contains("5 tables, 5 match, 0 differ, 0 unverified");
    }

    @Test
    @Order(2)
    void rowsChangedOnTheTargetBehindTheAppliersBackAreNamedWithTheirChunk() {
        SERVERS.target().execute("UPDATE vdst.keyed SET v = 'planted' WHERE id = 1",
            "DELETE FROM vdst.keyed WHERE id = 555", "INSERT INTO vdst.keyed VALUES (5000, 'extra', NULL, NULL)",
            "UPDATE vdst.keyed SET n = NULL WHERE id = 1000",
            "UPDATE vdst.composite SET v = NULL WHERE a = 50 AND b = 'b1'",
            "INSERT INTO vdst.nokey VALUES (1, 'a')");
        try {
            InProcessCli.Output out = verify();

            assertThat(out.code()).as(out.text()).isEqualTo(38);
            assertThat(out.line("vsrc.keyed")).contains("DIFFERS").contains("4 of 11 chunks differ");
            assertThat(out.text()).contains("id in (-inf, 100]: 1 row differs: id=1 changed")
                .contains("id in (500, 600]: 1 row differs: id=555 missing on the target")
                .contains("id in (1000, +inf): 1 row differs: id=5000 extra on the target")
                .contains("id in (900, 1000]: 1 row differs: id=1000 changed")
                .contains("(a,b) in ((33,'b1'), (66,'b2')]: 1 row differs: (a,b)=(50,'b1') changed");
            assertThat(out.line("vsrc.nokey")).contains("DIFFERS");
            assertThat(out.text()).contains("whole table (no primary or unique key): differs (4 rows on the source, 5 on"
                + " the target)");
            assertThat(out.line("vsrc.uniq")).contains("MATCH");

            InProcessCli.Output json = verify("--json", "--tables", "vsrc.key*,vsrc.uniq");
            assertThat(json.code()).isEqualTo(38);
            assertThat(json.line("{")).as("stdout holds one JSON object (the log goes to stderr)").startsWith("{\"tables\":[{\"source\":\"vsrc.keyed\",\"target\":\"vdst.keyed\","
                + "\"rows\":1000,\"chunks\":11,\"result\":\"DIFFERS\"").contains("\"result\":\"MATCH\"")
                .contains("\"differs\":1").contains("\"exit_code\":38").doesNotContain("composite");
        } finally {
            SERVERS.target().execute("UPDATE vdst.keyed SET v = 'v1' WHERE id = 1",
                "INSERT INTO vdst.keyed VALUES (555, 'v555', NULL, NULL)", "DELETE FROM vdst.keyed WHERE id = 5000",
                "UPDATE vdst.keyed SET n = 1000 WHERE id = 1000",
                "UPDATE vdst.composite SET v = UNHEX(MD5(151)) WHERE a = 50 AND b = 'b1'",
                "DELETE FROM vdst.nokey WHERE x = 1 LIMIT 1");
        }
        assertThat(verify().code()).as("after the repair").isZero();
    }

    @Test
    @Order(3)
    void aStoppedApplierBehindASourceThatMovedOnCannotConfirmADifference() {
        SERVERS.target().execute("UPDATE vdst.uniq SET v = -1 WHERE id = 7");
        SERVERS.source().execute("INSERT INTO vsrc.skipped VALUES (11)", "UPDATE vsrc.busy SET v = 1 WHERE id = 1");
        try {
            InProcessCli.Output out = verify("--tables", "vsrc.uniq,vsrc.keyed");

            assertThat(out.code()).as(out.text()).isEqualTo(39);
            assertThat(out.line("vsrc.uniq")).contains("UNVERIFIED").contains("id in (-inf, 100]")
                .contains("has not reached the source");
            assertThat(out.line("vsrc.keyed")).contains("MATCH");
        } finally {
            SERVERS.target().execute("UPDATE vdst.uniq SET v = 14 WHERE id = 7");
            applyAll();
        }
        assertThat(verify().code()).isZero();
    }

    @Test
    @Order(4)
    void aRunningApplierUnderASourceWriteLoadMatchesAndStillFindsAPlantedRow() throws Exception {
        Applier applier = new Applier(new ConfigLoader().parse(yaml(), "test", "verify"), PipelineMetrics.NONE, 30_000);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread run = new Thread(() -> {
            try {
                applier.run(new Applier.Until.Forever());
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "verify-it-applier");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong writes = new AtomicLong();
        Thread load = new Thread(() -> {
            try (Connection c = SERVERS.source().connect(); Statement s = c.createStatement()) {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                while (writing.get()) {
                    int id = 1 + r.nextInt(2000);
                    switch (r.nextInt(3)) {
                        case 0 -> s.execute("UPDATE vsrc.busy SET v = v + 1 WHERE id = " + id);
                        case 1 -> s.execute("UPDATE vsrc.keyed SET n = " + r.nextInt() + " WHERE id = " + (id / 2 + 1));
                        default -> s.execute("BEGIN; DELETE FROM vsrc.busy WHERE id = " + id
                            + "; INSERT INTO vsrc.busy VALUES (" + id + ", " + r.nextInt(100) + "); COMMIT");
                    }
                    writes.incrementAndGet();
                    Thread.sleep(20);
                }
            } catch (Exception e) {
                failure.set(e);
            }
        }, "verify-it-load");
        run.start();
        load.start();
        try {
            for (int i = 0; i < 2; i++) {
                InProcessCli.Output out = verify();
                assertThat(out.code()).as(out.text()).isZero();
                assertThat(out.line("vsrc.busy")).contains("2000").contains(" 21 ").contains("MATCH");
            }
            SERVERS.target().execute("UPDATE vdst.composite SET v = 'planted' WHERE a = 99 AND b = 'b0'");
            InProcessCli.Output out = verify();
            assertThat(out.code()).as(out.text()).isEqualTo(38);
            assertThat(out.text()).contains("(a,b)=(99,'b0') changed");
            assertThat(out.line("vsrc.busy")).contains("MATCH");
            assertThat(out.line("vsrc.keyed")).contains("MATCH");
            assertThat(writes.get()).as("source writes during the verify runs").isGreaterThan(50);
            assertThat(failure.get()).isNull();
        } finally {
            writing.set(false);
            load.join(10_000);
            applier.requestStop();
            run.join(30_000);
            SERVERS.target().execute("UPDATE vdst.composite SET v = UNHEX(MD5(297)) WHERE a = 99 AND b = 'b0'");
        }
        assertThat(verify().code()).isZero();
    }

    @Test
    @Order(5)
    void tablesThatNameNothingAppliedAreABadCommandLine() {
        assertThat(verify("--tables", "vsrc.skipped").code()).isEqualTo(2);
        assertThat(verify("--tables", "nodot").code()).isEqualTo(2);
        // no table at all (a filter or privileges that leave nothing): not "everything matches" (was exit 0)
        Path none = Configs.write(yaml().replace(FILTER, "filter:\n  include: [\"nosuch.*\"]\n"));
        InProcessCli.Output out = InProcessCli.main("verify", "--config", none.toString());
        assertThat(out.code()).as(out.text()).isEqualTo(39);
        assertThat(out.text()).contains("verify found no table to compare on the source");
    }

    /**
     * TIMESTAMP values are compared as UTC: with the target's time_zone another than the source's,
     * the same instants printed in each session's zone looked different (exit 38 on identical data).
     */
    @Test
    @Order(6)
    void timestampsAndCharsMatchWhateverTheServersTimeZonesAndSqlModes() {
        for (var m : List.of(SERVERS.source(), SERVERS.target())) {
            String schema = m == SERVERS.source() ? "vsrc" : "vdst";
            m.execute("SET SESSION sql_log_bin = 0", "SET SESSION time_zone = '+00:00'",
                "CREATE TABLE " + schema + ".stamps (id INT PRIMARY KEY, ts TIMESTAMP(3) NULL, c CHAR(10))",
                "INSERT INTO " + schema + ".stamps SELECT seq, FROM_UNIXTIME(1700000000 + seq * 3600.5), 'ab' FROM "
                    + schema + ".seq_1_to_200");
        }
        SERVERS.target().execute("SET GLOBAL time_zone = '+05:00'",
            "SET GLOBAL sql_mode = CONCAT(@@GLOBAL.sql_mode, ',PAD_CHAR_TO_FULL_LENGTH')");
        try {
            InProcessCli.Output out = verify("--tables", "vsrc.stamps");

            assertThat(out.code()).as(out.text()).isZero();
            assertThat(out.line("vsrc.stamps")).contains("MATCH");
        } finally {
            SERVERS.target().execute("SET GLOBAL time_zone = 'SYSTEM'",
                "SET GLOBAL sql_mode = REPLACE(@@GLOBAL.sql_mode, ',PAD_CHAR_TO_FULL_LENGTH', '')");
            SERVERS.source().execute("SET SESSION sql_log_bin = 0", "DROP TABLE vsrc.stamps");
            SERVERS.target().execute("DROP TABLE vdst.stamps");
        }
    }

    /**
     * A target table without the source's key can hold a key twice: that is a difference, not one row
     * among equals (the second copy collapsed into the first and the chunk passed).
     */
    @Test
    @Order(7)
    void aKeyTheTargetHoldsTwiceDiffers() {
        SERVERS.source().execute("SET SESSION sql_log_bin = 0", "CREATE TABLE vsrc.dup (id INT PRIMARY KEY, v INT)",
            "INSERT INTO vsrc.dup SELECT seq, seq FROM vsrc.seq_1_to_300");
        SERVERS.target().execute("CREATE TABLE vdst.dup (id INT NOT NULL, v INT, KEY (id))",
            "INSERT INTO vdst.dup SELECT seq, seq FROM vdst.seq_1_to_300", "INSERT INTO vdst.dup VALUES (5, 5)");
        try {
            InProcessCli.Output out = verify("--tables", "vsrc.dup");

            assertThat(out.code()).as(out.text()).isEqualTo(38);
            assertThat(out.text()).contains("id=5 duplicated on the target");
        } finally {
            SERVERS.source().execute("SET SESSION sql_log_bin = 0", "DROP TABLE vsrc.dup");
            SERVERS.target().execute("DROP TABLE vdst.dup");
        }
    }

    /**
     * Cases that used to pass on different data (exit 0): a value whose row text passes max_allowed_packet
     * (the text was NULL, and NULL hashes compare equal), TIME(3) keys a fraction apart (one key text for
     * several rows), a target row with a NULL in the chunking key (in no chunk's range), and a system-versioned
     * table (not listed as a BASE TABLE, so never verified). Each is a difference now.
     */
    @Test
    @Order(8)
    void bigValuesFractionalTimeKeysNullKeysAndSystemVersionedTablesAreCompared() {
        String[] tables = {
            "CREATE TABLE %s.big (id INT PRIMARY KEY, b LONGBLOB)",
            "CREATE TABLE %s.times (t TIME(3) PRIMARY KEY, v INT)",
            "CREATE TABLE %s.versioned (id INT PRIMARY KEY, v INT) WITH SYSTEM VERSIONING"};
        for (String t : tables) {
            SERVERS.source().execute("SET SESSION sql_log_bin = 0", String.format(t, "vsrc"));
            SERVERS.target().execute(String.format(t, "vdst"));
        }
        SERVERS.source().execute("SET SESSION sql_log_bin = 0", "CREATE TABLE vsrc.nullkey (id INT NOT NULL, v INT,"
            + " UNIQUE KEY (id))");
        SERVERS.target().execute("CREATE TABLE vdst.nullkey (id INT NULL, v INT, UNIQUE KEY (id))");
        for (var m : List.of(SERVERS.source(), SERVERS.target())) {
            String schema = m == SERVERS.source() ? "vsrc" : "vdst";
            m.execute("SET SESSION sql_log_bin = 0",
                "INSERT INTO " + schema + ".big SELECT seq, REPEAT('x', 3000000) FROM " + schema + ".seq_1_to_3",
                "INSERT INTO " + schema + ".times SELECT SEC_TO_TIME(36000 + seq / 10), seq FROM " + schema
                    + ".seq_1_to_250",
                "INSERT INTO " + schema + ".nullkey SELECT seq, seq FROM " + schema + ".seq_1_to_250",
                "INSERT INTO " + schema + ".versioned SELECT seq, seq FROM " + schema + ".seq_1_to_50");
        }
        SERVERS.target().execute("UPDATE vdst.big SET b = CONCAT(LEFT(b, 2999999), 'y') WHERE id = 2",
            "UPDATE vdst.times SET v = -1 WHERE t = '10:00:00.500'",
            "INSERT INTO vdst.nullkey VALUES (NULL, 7)",
            "UPDATE vdst.versioned SET v = -1 WHERE id = 9");
        // rows of 3 MB against a 2 MB packet: their text, value and all, would be NULL
        SERVERS.source().execute("SET GLOBAL max_allowed_packet = 2097152");
        SERVERS.target().execute("SET GLOBAL max_allowed_packet = 2097152");
        try {
            InProcessCli.Output out = verify("--tables", "vsrc.big,vsrc.times,vsrc.nullkey,vsrc.versioned");

            assertThat(out.code()).as(out.text()).isEqualTo(38);
            assertThat(out.line("vsrc.big")).contains("DIFFERS");
            assertThat(out.text()).contains("id=2 changed");
            assertThat(out.line("vsrc.times")).contains(" 250 ").contains("DIFFERS");
            assertThat(out.text()).contains("t='10:00:00.500' changed");
            assertThat(out.line("vsrc.nullkey")).contains("DIFFERS");
            assertThat(out.text()).contains("id=NULL extra on the target");
            assertThat(out.line("vsrc.versioned")).contains("vdst.versioned").contains("DIFFERS");
        } finally {
            SERVERS.source().execute("SET GLOBAL max_allowed_packet = 16777216");
            SERVERS.target().execute("SET GLOBAL max_allowed_packet = 16777216");
            for (String t : List.of("big", "times", "nullkey", "versioned")) {
                SERVERS.source().execute("SET SESSION sql_log_bin = 0", "DROP TABLE vsrc." + t);
                SERVERS.target().execute("DROP TABLE vdst." + t);
            }
        }
    }
}
