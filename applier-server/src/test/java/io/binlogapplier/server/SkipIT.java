package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failure outlives the process: the target keeps the last error with the failing transaction's
 * GTID and position, {@code status} shows it after the applier exited, and {@code skip --gtid} of
 * exactly that transaction (recorded in {@code binlog_applier.skipped}) lets the applier continue
 * with everything after it. Commands that need the applier stopped refuse while it runs.
 */
class SkipIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final int TRANSACTIONS = 100;
    private static final int PLANTED = 57;

    private static InProcessCli.Output cli(String... args) {
        InProcessCli.Output out = InProcessCli.main(args);
        System.out.println("$ binlog-applier " + String.join(" ", args) + "  [exit " + out.code() + "]\n" + out.text());
        return out;
    }

    private static CliRun.Result run(Path cfg, String until) {
        CliRun.Result r = CliRun.run(180, "run", "--config", cfg.toString(), "--until", until);
        System.out.println("$ binlog-applier run --until " + until + "  [exit " + r.exitCode() + "]\n" + r.lastLine());
        return r;
    }

    @Test
    void aConflictStopsTheApplierStatusKeepsItAndSkippingExactlyThatTransactionLetsItContinue() throws Exception {
        String db = "skipit";
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB");
        }
        SERVERS.target().execute("INSERT INTO " + db + ".t VALUES (" + PLANTED + ", -1)");
        String start = TestApplier.currentPosition(SERVERS.source());
        String failingAt = null;
        String failingGtid = null;
        String beforeFailing = null;
        for (int id = 1; id <= TRANSACTIONS; id++) {
            if (id == PLANTED) {
                failingAt = TestApplier.currentPosition(SERVERS.source());
                beforeFailing = SERVERS.source().queryString("SELECT @@gtid_binlog_pos");
            }
            SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (" + id + ", " + id + ")");
            if (id == PLANTED) {
                failingGtid = SERVERS.source().queryString("SELECT @@gtid_binlog_pos");
            }
        }
        Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), db, start, "optimistic", 4, null));

        CliRun.Result failed = run(cfg, "current");
        InProcessCli.Output status = cli("status", "--config", cfg.toString());
        InProcessCli.Output json = cli("status", "--config", cfg.toString(), "--json");

        assertThat(failed.exitCode()).as(failed.output()).isEqualTo(23);
        assertThat(status.line("last error")).contains("exit 23 (TARGET_DATA_CONFLICT)")
            .contains("in transaction " + failingGtid + " at " + failingAt).contains("`" + db + "`.`t`");
        assertThat(status.line("process")).contains("not running").contains("stopped at");
        assertThat(json.text()).contains("\"running\":false").contains("\"exit_code\":23")
            .contains("\"gtid\":\"" + failingGtid + "\"");

        // Another transaction than the next one is refused, and nothing moves.
        InProcessCli.Output wrong = cli("skip", "--config", cfg.toString(), "--gtid", "0-1-99999");
        assertThat(wrong.code()).isEqualTo(34);
        assertThat(wrong.text()).contains("not 0-1-99999").contains("nothing was skipped");
        // Units in flight beside the failing one were rolled back: apply up to the failing transaction first.
        CliRun.Result upTo = run(cfg, failingAt);
        assertThat(upTo.exitCode()).as(upTo.output()).isZero();
        assertThat(savedGtids(db)).isEqualTo(beforeFailing);
        assertThat(cli("status", "--config", cfg.toString()).line("last error")).as("not applied yet: still the error")
            .contains(failingGtid);

        // A saved file position of another server (as after a failover behind the source's address): skip
        // would read that server's transactions there. It refuses (19), and nothing moves.
        SERVERS.target().execute("UPDATE binlog_applier.applier_position SET source_server_id = 99"
            + " WHERE stream = '" + db + "'");
        InProcessCli.Output otherServer = cli("skip", "--config", cfg.toString(), "--gtid", failingGtid);
        assertThat(otherServer.code()).as(otherServer.text()).isEqualTo(19);
        assertThat(otherServer.text()).contains("is in server_id 99's binlog");
        assertThat(savedGtids(db)).isEqualTo(beforeFailing);
        SERVERS.target().execute("UPDATE binlog_applier.applier_position SET source_server_id = 1"
            + " WHERE stream = '" + db + "'");

        InProcessCli.Output skipped = cli("skip", "--config", cfg.toString(), "--gtid", failingGtid);

        assertThat(skipped.code()).as(skipped.text()).isZero();
        assertThat(skipped.text()).contains("skipped transaction " + failingGtid + " at " + failingAt)
            .contains("last error cleared");
        assertThat(SERVERS.target().queryString("SELECT CONCAT_WS(' ', stream, gtid, CONCAT(binlog_file, ':',"
            + " binlog_offset), error_code, LEFT(error_message, 60)) FROM binlog_applier.skipped"))
            .startsWith(db + " " + failingGtid + " " + failingAt + " 23 ");
        assertThat(savedGtids(db)).isEqualTo(failingGtid);
        assertThat(cli("status", "--config", cfg.toString()).line("last error")).endsWith("none");
        assertThat(cli("skip", "--config", cfg.toString(), "--gtid", failingGtid).code())
            .as("skipped already: no longer the next one").isEqualTo(34);

        CliRun.Result rest = run(cfg, "current");

        assertThat(rest.exitCode()).as(rest.output()).isZero();
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(TRANSACTIONS);
        assertThat(SERVERS.target().queryLong("SELECT v FROM " + db + ".t WHERE id = " + PLANTED))
            .as("the skipped transaction's row is the target's own").isEqualTo(-1);
        // verify names exactly the row the skipped transaction would have written
        InProcessCli.Output differs = cli("verify", "--config", cfg.toString(), "--tables", db + ".*");
        assertThat(differs.code()).as(differs.text()).isEqualTo(38);
        assertThat(differs.line(db + ".t")).contains("DIFFERS");
        assertThat(differs.text()).contains("1 row differs: id=" + PLANTED + " changed");
        SERVERS.target().execute("SET SESSION sql_log_bin = 0",
            "UPDATE " + db + ".t SET v = " + PLANTED + " WHERE id = " + PLANTED);
        InProcessCli.Output repaired = cli("verify", "--config", cfg.toString(), "--tables", db + ".*");
        assertThat(repaired.code()).as(repaired.text()).isZero();
        assertThat(repaired.line(db + ".t")).contains("MATCH");
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM binlog_applier.skipped")).isEqualTo(1);
    }

    @Test
    void commandsThatNeedTheApplierStoppedRefuseWhileItRunsAndSetPositionMovesIt() throws Exception {
        String db = "setpos";
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT PRIMARY KEY) ENGINE=InnoDB");
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (1)");
        Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 2, null));

        try (CliRun applier = CliRun.start("run", "--config", cfg.toString())) {
            applier.awaitThat("running, as status tells", 60,
                () -> InProcessCli.main("status", "--config", cfg.toString()).text().contains("running: pid "),
                () -> "");
            InProcessCli.Output status = cli("status", "--config", cfg.toString());
            InProcessCli.Output setWhileRunning = cli("set-position", "--config", cfg.toString(), start);
            InProcessCli.Output skipWhileRunning = cli("skip", "--config", cfg.toString());
            CliRun.Result second = CliRun.run(60, "run", "--config", cfg.toString());
            applier.terminate();
            CliRun.Result stopped = applier.await(60);

            assertThat(status.line("process")).contains("running: pid " + applier.pid());
            assertThat(setWhileRunning.code()).isEqualTo(31);
            assertThat(setWhileRunning.text()).contains("needs applier '" + db + "' stopped")
                .contains("pid " + applier.pid());
            assertThat(skipWhileRunning.code()).isEqualTo(31);
            assertThat(second.exitCode()).as("a second applier of the same name: " + second.output()).isEqualTo(31);
            assertThat(stopped.exitCode()).as(stopped.output()).isZero();
        }
        assertThat(cli("status", "--config", cfg.toString()).line("process")).contains("not running")
            .contains("stopped at");
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(1);

        // Jump over a transaction by hand: the next run starts at the given position.
        SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (2)");
        String after2 = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (3)");
        InProcessCli.Output bad = cli("set-position", "--config", cfg.toString(), "nonsense");
        String[] fp = after2.split(":");
        // inside the GTID event that starts the transaction, and at the transaction's second event
        InProcessCli.Output midEvent = cli("set-position", "--config", cfg.toString(),
            fp[0] + ":" + (Long.parseLong(fp[1]) + 3));
        InProcessCli.Output midTransaction = cli("set-position", "--config", cfg.toString(), fp[0] + ":"
            + eventAfter(fp[0], Long.parseLong(fp[1])));
        InProcessCli.Output set = cli("set-position", "--config", cfg.toString(), after2);
        CliRun.Result rest = run(cfg, "current");

        assertThat(bad.code()).isEqualTo(2);
        assertThat(midEvent.code()).as(midEvent.text()).isEqualTo(2);
        assertThat(midEvent.text()).contains("is not where an event starts");
        assertThat(midTransaction.code()).as(midTransaction.text()).isEqualTo(2);
        assertThat(midTransaction.text()).contains("is inside a transaction");
        assertThat(set.code()).as(set.text()).isZero();
        assertThat(set.text()).contains("now " + after2);
        assertThat(rest.exitCode()).as(rest.output()).isZero();
        assertThat(SERVERS.target().queryString("SELECT GROUP_CONCAT(id ORDER BY id) FROM " + db + ".t"))
            .isEqualTo("1,3");
    }

    /** The position of the event after the one at {@code pos} in {@code file} (SHOW BINLOG EVENTS). */
    private static long eventAfter(String file, long pos) {
        try (var c = SERVERS.source().connect(); var st = c.createStatement();
             var rs = st.executeQuery("SHOW BINLOG EVENTS IN '" + file + "' FROM " + pos + " LIMIT 1")) {
            rs.next();
            return rs.getLong("End_log_pos");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String savedGtids(String stream) {
        return SERVERS.target().queryString("SELECT gtid_set FROM binlog_applier.applier_position WHERE stream = '"
            + stream + "'");
    }
}
