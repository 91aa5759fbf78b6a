package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.ServerSocket;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Errors an operator can cause: each stops with a one-line message naming cause and fix, its own
 * exit code, and the state row as it was.
 */
class BadInputIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private String stream;
    private String stateBefore;

    @BeforeEach
    void applyOnceSoTheStateRowExists(org.junit.jupiter.api.TestInfo info) {
        stream = info.getTestMethod().orElseThrow().getName().substring(0, 20);
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE IF NOT EXISTS bad", "CREATE TABLE IF NOT EXISTS bad.t (id INT PRIMARY KEY)",
            "REPLACE INTO bad.t VALUES (1)");
        CliRun.Result ok = CliRun.run(120, "run", "--config", good(start).toString(), "--until", "current");
        assertThat(ok.exitCode()).as(ok.output()).isZero();
        stateBefore = stateRow();
    }

    @AfterEach
    void restoreRowFormat() {
        SERVERS.source().execute("SET GLOBAL binlog_format = ROW");
    }

    @Test
    void unreachableSourceNamesHostAndPort() throws Exception {
        int nobody;
        try (ServerSocket s = new ServerSocket(0)) {
            nobody = s.getLocalPort();
        }
        String yaml = TestApplier.yaml(SERVERS.servers(), stream, "current", "conservative", 1, null)
            .replace("port: " + SERVERS.source().port(), "port: " + nobody);

        CliRun.Result r = CliRun.run(120, "run", "--config", Configs.write(yaml).toString(), "--until", "current");

        assertOneLineFailure(r, ExitCode.SOURCE_UNREACHABLE, "cannot reach source 127.0.0.1:" + nobody,
            "check source.host/source.port");
    }

    @Test
    void wrongPasswordNamesTheUser() {
        String yaml = TestApplier.yaml(SERVERS.servers(), stream, "current", "conservative", 1, null)
            .replace("password: repl", "password: not-the-password");

        CliRun.Result r = CliRun.run(120, "run", "--config", Configs.write(yaml).toString(), "--until", "current");

        assertOneLineFailure(r, ExitCode.SOURCE_ACCESS_DENIED, "refused user 'repl'", "check source.user and source.password");
    }

    @Test
    void startPositionTheSourceNoLongerHasIsRefused() {
        purgeOldBinlogs();
        SERVERS.target().execute("DELETE FROM binlog_applier.applier_position WHERE stream = '" + stream + "'");
        stateBefore = null;
        Path cfg = Configs.forPair(SERVERS.servers(), stream, "mysql-bin.000001:4");

        CliRun.Result r = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");

        assertOneLineFailure(r, ExitCode.SOURCE_POSITION_UNAVAILABLE, "no longer has binlog file mysql-bin.000001",
            "re-seed the target");
        assertThat(stateRow()).as("no state row is created for a start that cannot be read").isNull();
    }

    @Test
    void startPositionInsideATransactionIsRefused() throws Exception {
        SERVERS.target().execute("DELETE FROM binlog_applier.applier_position WHERE stream = '" + stream + "'");
        stateBefore = null;
        String at = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("REPLACE INTO bad.t VALUES (2)");
        String[] fp = at.split(":");
        long second; // the transaction's second event: inside it
        try (var c = SERVERS.source().connect(); var st = c.createStatement();
             var rs = st.executeQuery("SHOW BINLOG EVENTS IN '" + fp[0] + "' FROM " + fp[1] + " LIMIT 1")) {
            rs.next();
            second = rs.getLong("End_log_pos");
        }
        Path cfg = Configs.forPair(SERVERS.servers(), stream, fp[0] + ":" + second);

        CliRun.Result r = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");

        assertOneLineFailure(r, ExitCode.CONFIG, "source.start " + fp[0] + ":" + second + " is inside a transaction",
            "give the position of a transaction's first event");
        assertThat(stateRow()).as("no state row is created for a start inside a transaction").isNull();
    }

    @Test
    void purgedGtidPositionIsRefusedByTheSource() {
        purgeOldBinlogs();
        SERVERS.target().execute("DELETE FROM binlog_applier.applier_position WHERE stream = '" + stream + "'");
        stateBefore = null;
        Path cfg = Configs.forPair(SERVERS.servers(), stream, "0-1-1");

        CliRun.Result r = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");

        assertOneLineFailure(r, ExitCode.SOURCE_POSITION_UNAVAILABLE, "cannot send from", "re-seed the target");
        assertThat(stateRow()).as("the row written for this start is removed again").isNull();
    }

    @Test
    void missingTargetTableNamesTheTable() {
        // Created without logging, so the target never gets it.
        SERVERS.source().execute("SET SESSION sql_log_bin = 0; CREATE TABLE bad.only_on_source (id INT PRIMARY KEY)");
        SERVERS.source().execute("INSERT INTO bad.only_on_source VALUES (1)");

        CliRun.Result r = CliRun.run(120, "run", "--config", good("current").toString(), "--until", "current");

        assertOneLineFailure(r, ExitCode.TARGET_SCHEMA_MISMATCH, "`bad`.`only_on_source` does not exist on the target",
            "create it there");
    }

    @Test
    void statementFormatSourceIsRefusedWithTheFix() {
        SERVERS.source().execute("SET GLOBAL binlog_format = STATEMENT");

        CliRun.Result r = CliRun.run(120, "run", "--config", good("current").toString(), "--until", "current");

        assertOneLineFailure(r, ExitCode.SOURCE_BINLOG_FORMAT, "binlog_format=STATEMENT", "SET GLOBAL binlog_format=ROW");
    }

    /** Rotates and purges every binlog but the newest; waits until dump threads let go of old files. */
    private static void purgeOldBinlogs() {
        SERVERS.source().execute("FLUSH BINARY LOGS");
        String current = TestApplier.currentPosition(SERVERS.source());
        String file = current.substring(0, current.indexOf(':'));
        for (int i = 0; i < 100; i++) {
            SERVERS.source().execute("PURGE BINARY LOGS TO '" + file + "'");
            if (file.equals(firstBinlog())) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new AssertionError("could not purge binlogs before " + file + ": " + firstBinlog());
    }

    private static String firstBinlog() {
        try (var c = SERVERS.source().connect(); var s = c.createStatement(); var rs = s.executeQuery("SHOW BINARY LOGS")) {
            rs.next();
            return rs.getString(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path good(String start) {
        return Configs.forPair(SERVERS.servers(), stream, start);
    }

    private void assertOneLineFailure(CliRun.Result r, ExitCode code, String cause, String fix) {
        assertThat(r.exitCode()).as(r.output()).isEqualTo(code.code());
        assertThat(r.lastLine()).as(r.output()).contains(cause).contains(fix).contains("[exit " + code.code() + "]");
        assertThat(r.output()).as("no stack trace for an expected error").doesNotContain("\tat ");
        if (stateBefore != null) {
            assertThat(stateRow()).as("state row unchanged").isEqualTo(stateBefore);
        }
    }

    private String stateRow() {
        return SERVERS.target().queryString("SELECT CONCAT_WS('|', binlog_file, binlog_offset, gtid_set,"
            + " applied_transactions, updated_at) FROM binlog_applier.applier_position WHERE stream = '" + stream + "'");
    }
}
