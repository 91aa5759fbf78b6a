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
 * BINLOG statements with lean row images: UPDATE and DELETE before images that carry only the
 * target's primary key ({@code apply.lean_before_images}) and UPDATE after images that carry only the
 * columns that changed ({@code apply.lean_after_images}, off by default: turned on here). The target must end
 * up as the source, for primary keys of one column and of several (not the leading columns, their
 * values changed by an UPDATE), for a target whose primary key is another column than the source's,
 * for columns that go from NULL to a value and back, generated columns, and a column with an
 * {@code ON UPDATE} default that an UPDATE leaves as it was; beside tables that keep whole images (no
 * primary key, a unique key only); the images must really be lean (the target receives a fraction
 * of the bytes); and a row the target lacks still stops the applier with nothing of its
 * transaction committed.
 */
class LeanImagesIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"conservative, 1", "optimistic, 4"})
    void everyTableMatchesTheSource(String mode, int workers) {
        String db = "lean_" + mode;
        String common = "CREATE TABLE " + db + ".pk (id INT PRIMARY KEY, name VARCHAR(40) NULL, n DECIMAL(12,3) NULL,"
            + " ts DATETIME(6) NULL, doc TEXT NULL, bin BLOB NULL, j JSON NULL);"
            // a key of two columns, neither of them first, and a column between them
            + "CREATE TABLE " + db + ".ck (a INT NOT NULL, pad VARCHAR(200) NOT NULL, b VARCHAR(20) NOT NULL, c INT NULL,"
            + " PRIMARY KEY (b, a));"
            + "CREATE TABLE " + db + ".nopk (x INT NULL, y VARCHAR(30) NULL, KEY (x));"
            + "CREATE TABLE " + db + ".uq (id INT NOT NULL, v VARCHAR(30) NULL, UNIQUE KEY (id));"
            // a column with an ON UPDATE default and generated columns of both kinds
            + "CREATE TABLE " + db + ".au (id INT PRIMARY KEY, v INT NOT NULL, note VARCHAR(20) NULL,"
            + " ts TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),"
            + " twice INT AS (v * 2) STORED, label VARCHAR(30) AS (CONCAT('n:', IFNULL(note, '-'))) VIRTUAL)";
        // the target's copy of `moved` finds rows by `code`, the source's by `id`
        SERVERS.source().execute(("SET SESSION sql_log_bin = 0;CREATE DATABASE " + db + ";" + common
            + ";CREATE TABLE " + db + ".moved (id INT PRIMARY KEY, code INT NOT NULL UNIQUE, v VARCHAR(30) NULL)")
            .split(";"));
        SERVERS.target().execute(("SET SESSION sql_log_bin = 0;CREATE DATABASE " + db + ";" + common
            + ";CREATE TABLE " + db + ".moved (id INT NOT NULL UNIQUE, code INT PRIMARY KEY, v VARCHAR(30) NULL)")
            .split(";"));
        String start = TestApplier.currentPosition(SERVERS.source());
        for (int round = 0; round < 3; round++) {
            SERVERS.source().execute("BEGIN",
                "INSERT INTO " + db + ".pk SELECT seq + " + round * 1000 + ", IF(seq % 3 = 0, NULL, CONCAT('n', seq)),"
                    + " seq / 7, '2024-02-29 13:00:00.000100' + INTERVAL seq SECOND, REPEAT('t', seq % 500),"
                    + " IF(seq % 5 = 0, NULL, UNHEX(REPEAT('00ff', seq % 40))), JSON_OBJECT('k', seq)"
                    + " FROM " + db + ".seq_1_to_300",
                "INSERT INTO " + db + ".ck SELECT seq, REPEAT('p', 150), CONCAT('b', seq % 7, '-', " + round + "),"
                    + " IF(seq % 4 = 0, NULL, seq) FROM " + db + ".seq_1_to_300",
                "INSERT INTO " + db + ".nopk SELECT seq % 50, CONCAT('y', seq) FROM " + db + ".seq_1_to_200",
                "INSERT INTO " + db + ".uq SELECT seq + " + round * 1000 + ", CONCAT('v', seq) FROM " + db + ".seq_1_to_200",
                "INSERT INTO " + db + ".moved SELECT seq + " + round * 1000 + ", seq + " + round * 1000 + " + 100000,"
                    + " 'm' FROM " + db + ".seq_1_to_200",
                "SET timestamp = 1700000000 + " + round,
                "INSERT INTO " + db + ".au (id, v, note) SELECT seq + " + round * 1000 + ", seq, IF(seq % 2 = 0, NULL, 'x')"
                    + " FROM " + db + ".seq_1_to_200",
                "COMMIT");
            // later: an ON UPDATE column left as it was must not take the target's time (or the event's)
            SERVERS.source().execute("SET timestamp = 1800000000 + " + round, "BEGIN",
                "UPDATE " + db + ".au SET v = v + 1, ts = ts WHERE id % 3 = 0",
                // one event with only NULL -> value changes, one with only value -> NULL
                "UPDATE " + db + ".au SET note = CONCAT('set ', id) WHERE note IS NULL AND id % 4 = 2",
                "UPDATE " + db + ".au SET note = NULL WHERE note IS NOT NULL AND id % 4 = 1",
                "COMMIT", "SET timestamp = DEFAULT");
            SERVERS.source().execute("BEGIN",
                "UPDATE " + db + ".pk SET name = IF(name IS NULL, 'was null', NULL), n = n * 2, doc = CONCAT(doc, 'x')"
                    + " WHERE id % 2 = 0",
                "UPDATE " + db + ".pk SET id = id + 500000 WHERE id % 11 = 0 AND id < 500000",
                "UPDATE " + db + ".ck SET b = CONCAT(b, 'z'), c = IFNULL(c, 0) + 1 WHERE a % 3 = 0",
                "UPDATE " + db + ".ck SET pad = 'short' WHERE a % 5 = 0",
                "UPDATE " + db + ".nopk SET y = CONCAT(y, '!') WHERE x % 3 = 0",
                "UPDATE " + db + ".uq SET v = NULL WHERE id % 4 = 0",
                "UPDATE " + db + ".moved SET v = CONCAT(v, id) WHERE id % 3 = 0",
                "COMMIT");
            SERVERS.source().execute("BEGIN",
                "DELETE FROM " + db + ".pk WHERE id % 7 = 0",
                "DELETE FROM " + db + ".ck WHERE a % 6 = 1",
                "DELETE FROM " + db + ".nopk WHERE x % 10 = 0 LIMIT 5",
                "DELETE FROM " + db + ".uq WHERE id % 9 = 0",
                "DELETE FROM " + db + ".moved WHERE id % 8 = 0",
                "COMMIT");
        }
        String end = TestApplier.currentPosition(SERVERS.source());
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, mode, workers,
            "  method: binlog\n  lean_after_images: true\n"), "test", db);

        List<String> retries = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicLong afterDropped = new java.util.concurrent.atomic.AtomicLong();
        TestApplier.runUntilCurrent(cfg, new PipelineMetrics() {
            @Override
            public void retried(String reason) {
                retries.add(reason);
            }

            @Override
            public void leanImages(long beforeBytesDropped, long afterBytesDropped) {
                afterDropped.addAndGet(afterBytesDropped);
            }
        });

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).isEqualTo(end);
        // A BINLOG statement whose lean images found no row would be applied again as SQL, from whole images,
        // and the target would still match: no unit may have needed that.
        assertThat(retries).as("units rolled back and applied again").isEmpty();
        // the after images were lean (each round's UPDATEs leave kilobytes of unchanged columns out)
        assertThat(afterDropped.get()).as("after-image bytes left out").isGreaterThan(100_000);
    }

    @Test
    void theTargetReceivesAFractionOfTheBytesOfWholeImages() {
        long[] lean = bytesToApplyWideDeletes("lean_bytes_on", "  lean_after_images: true\n");
        long[] whole = bytesToApplyWideDeletes("lean_bytes_off",
            "  lean_before_images: false\n  lean_after_images: false\n");

        // Each run deletes 1,000 rows of about 1 KB and updates a small column of 1,000 more: whole images are
        // over 4 MB as base64, lean ones hold the key and the changed column.
        assertThat(whole[0]).as("bytes received with whole images").isGreaterThan(4_000_000);
        assertThat(lean[0]).as("bytes received with lean images (whole: %d)", whole[0]).isLessThan(whole[0] / 5);
        // counted as they are left out: about 1 KB for each of the 2,000 before images, and of the 1,000 after images
        assertThat(lean[1]).as("before-image bytes left out").isGreaterThan(2_000_000);
        assertThat(lean[2]).as("after-image bytes left out").isGreaterThan(1_000_000);
        assertThat(whole[1]).as("before-image bytes left out with lean_before_images: false").isZero();
        assertThat(whole[2]).as("after-image bytes left out with lean_after_images: false").isZero();
    }

    /** @return {bytes the target received, before- and after-image bytes the metrics say were left out} */
    private static long[] bytesToApplyWideDeletes(String db, String extraApply) {
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".w (id INT PRIMARY KEY, payload VARCHAR(1000) NOT NULL, k INT NOT NULL)",
            "INSERT INTO " + db + ".w SELECT seq, REPEAT(CHAR(65 + seq % 26), 1000), 0 FROM " + db + ".seq_1_to_3000");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.target().execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".w (id INT PRIMARY KEY, payload VARCHAR(1000) NOT NULL, k INT NOT NULL)",
            "INSERT INTO " + db + ".w SELECT seq, REPEAT(CHAR(65 + seq % 26), 1000), 0 FROM " + db + ".seq_1_to_3000");
        SERVERS.source().execute("DELETE FROM " + db + ".w WHERE id <= 1000");
        SERVERS.source().execute("UPDATE " + db + ".w SET k = 1 WHERE id > 2000");
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: binlog\n" + extraApply), "test", db);
        long before = SERVERS.target().globalStatus("Bytes_received");
        java.util.concurrent.atomic.AtomicLong droppedBefore = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong droppedAfter = new java.util.concurrent.atomic.AtomicLong();

        TestApplier.runUntilCurrent(cfg, new PipelineMetrics() {
            @Override
            public void leanImages(long beforeBytesDropped, long afterBytesDropped) {
                droppedBefore.addAndGet(beforeBytesDropped);
                droppedAfter.addAndGet(afterBytesDropped);
            }
        });

        long received = SERVERS.target().globalStatus("Bytes_received") - before;
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        return new long[] {received, droppedBefore.get(), droppedAfter.get()};
    }

    @Test
    void aRowTheTargetLacksStillStopsTheApplierWithNothingOfItsTransactionCommitted() {
        String db = "lean_conflict";
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, k INT NOT NULL, pad VARCHAR(100) NOT NULL)",
                "INSERT INTO " + db + ".t SELECT seq, seq, REPEAT('x', 100) FROM " + db + ".seq_1_to_2000");
        }
        SERVERS.target().execute("DELETE FROM " + db + ".t WHERE id = 1500");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("BEGIN", "UPDATE " + db + ".t SET k = -k WHERE id < 1000",
            "DELETE FROM " + db + ".t WHERE id >= 1000", "COMMIT");
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: binlog\n"), "test", db);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(ExitCode.TARGET_DATA_CONFLICT);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t WHERE k < 0")).isZero();
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(1999);
        String saved = TestApplier.savedPosition(SERVERS.target(), db);
        assertThat(saved == null || saved.equals(start)).as("saved %s, the failing transaction starts at %s", saved, start)
            .isTrue();
    }
}
