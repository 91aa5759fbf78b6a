package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A new stream (no state row before this start) whose source finds a binlog file damaged on the way: what it
 * applied before the gap stays applied and its position stays saved. (A state row written at this
 * start is removed when the source cannot serve the start position at all, so that a corrected
 * {@code source.start} is taken next time; it must never be removed once something was committed
 * after it.) Its own server pair: the test damages the source's binlog.
 */
class DamagedBinlogIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();
    private static final int TRANSACTIONS = 200;

    /** A binlog file the source's index lists but its disk lacks: no reconnect helps; the message says what. */
    @Test
    void aBinlogFileMissingFromTheSourcesDiskStopsTheApplierNamingIt() throws Exception {
        String db = "missingfile";
        SERVERS.source().execute("FLUSH BINARY LOGS");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".t (id INT PRIMARY KEY)",
            "INSERT INTO " + db + ".t VALUES (1)", "FLUSH BINARY LOGS");
        String missing = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (2)", "FLUSH BINARY LOGS",
            "INSERT INTO " + db + ".t VALUES (3)");
        String file = missing.substring(0, missing.indexOf(':'));
        java.nio.file.Files.delete(SERVERS.source().dir().resolve("data").resolve(file));
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: binlog\n").replace("reconnect_attempts: 0", "reconnect_attempts: 5"), "test", db);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(ExitCode.SOURCE_POSITION_UNAVAILABLE);
        assertThat(e.getMessage()).contains(file).contains("missing from its disk").doesNotContain("\n");
    }

    @Test
    void aBinlogFileDamagedMidStreamKeepsWhatWasAppliedBeforeIt() throws Exception {
        String db = "lostfile";
        SERVERS.source().execute("FLUSH BINARY LOGS");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".t (id INT PRIMARY KEY)");
        String[] inserts = new String[TRANSACTIONS];
        for (int i = 1; i <= TRANSACTIONS; i++) {
            inserts[i - 1] = "INSERT INTO " + db + ".t VALUES (" + i + ")";
        }
        SERVERS.source().execute(inserts);
        String endOfFirst = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("FLUSH BINARY LOGS");
        String lost = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (1000)");
        SERVERS.source().execute("FLUSH BINARY LOGS");
        SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (2000)");
        // The file's last event cut short: the source ends the stream there with error 1236.
        java.nio.file.Path file = SERVERS.source().dir().resolve("data").resolve(lost.substring(0, lost.indexOf(':')));
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 10);
        }
        // A ring of 16 entries and units of one transaction: the reader reaches the damaged file only after
        // most of the first file's transactions have committed.
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: binlog\n  ring_entries: 16\n  unit_max_transactions: 1\n"), "test", db);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(ExitCode.SOURCE_POSITION_UNAVAILABLE);
        long applied = SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t");
        assertThat(applied).as("rows applied before the damaged file").isGreaterThan(TRANSACTIONS - 50);
        String saved = TestApplier.savedPosition(SERVERS.target(), db);
        assertThat(saved).as("the state row of the rows applied").isNotNull();
        if (applied == TRANSACTIONS) {
            assertThat(saved).isEqualTo(endOfFirst);
        }
    }
}
