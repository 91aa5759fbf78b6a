package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code check}, {@code status} and {@code run --until GTID} against a real source and target. The
 * target writes a binlog of its own, so "check changes nothing" can be proven by its position.
 * The test that purges the source's binlogs runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CommandsIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair(List.of(),
        List.of("--log-bin=target-bin", "--binlog-format=ROW"));

    private static String setupStart;

    @BeforeAll
    static void schemaOnBothSides() {
        setupStart = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE cli", "CREATE TABLE cli.t (id INT PRIMARY KEY, v VARCHAR(20))",
            "INSERT INTO cli.t VALUES (1, 'one')");
        TestApplier.runUntilCurrent(TestApplier.config(SERVERS.servers(), "cli_setup", setupStart, "conservative", 1));
    }

    private static Path config(String stream, String start, String extra) {
        return Configs.write(TestApplier.yaml(SERVERS.servers(), stream, start, "conservative", 1, null)
            + (extra == null ? "" : extra));
    }

    private static InProcessCli.Output check(Path cfg) {
        InProcessCli.Output out = InProcessCli.main("check", "--config", cfg.toString());
        System.out.println("$ binlog-applier check\n" + out.text());
        return out;
    }

    private static String targetFootprint() {
        return SERVERS.target().queryString("SELECT CONCAT_WS(' | ', @@gtid_binlog_pos, (SELECT GROUP_CONCAT(CONCAT("
            + "TABLE_SCHEMA, '.', TABLE_NAME, ':', COALESCE(UPDATE_TIME, '')) ORDER BY TABLE_SCHEMA, TABLE_NAME)"
            + " FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN ('mysql', 'information_schema',"
            + " 'performance_schema', 'sys')), (SELECT GROUP_CONCAT(SCHEMA_NAME ORDER BY SCHEMA_NAME) FROM"
            + " information_schema.SCHEMATA), (SELECT GROUP_CONCAT(CONCAT_WS(',', stream, binlog_file, binlog_offset,"
            + " gtid_set, applied_transactions, updated_at)) FROM binlog_applier.applier_position))")
            + " | " + TestApplier.currentPosition(SERVERS.target());
    }

    @Test
    @Order(1)
    void checkPassesOnAHealthyPairAndLeavesTheTargetAsItWas() {
        String before = targetFootprint();

        InProcessCli.Output saved = check(config("cli_setup", "current", null));
        InProcessCli.Output fresh = check(Configs.write(TestApplier.yaml(SERVERS.servers(), "fresh", "current",
            "conservative", 1, null).replace("  password: \"\"\n", "  password: \"\"\n  state_schema: cli_state_new\n")));

        assertThat(targetFootprint()).as("the target's binlog, tables, schemas and state rows").isEqualTo(before);
        assertThat(saved.code()).as(saved.text()).isZero();
        assertThat(saved.text()).doesNotContain(" FAIL ");
        for (String row : List.of("source connection", "source binlog_format", "source binlog_row_image",
            "source event encoding", "source privileges", "target connection", "target state table",
            "target write privileges", "target DDL privileges", "schemas on both servers", "target flush settings",
            "start position", "source require_secure_transport", "target BINLOG for trigger tables")) {
            assertThat(saved.line(row)).contains(" PASS ");
        }
        assertThat(saved.line("source server_id")).contains(" WARN ").contains("REPLICATION MASTER ADMIN");
        // the test servers have no TLS; loopback is no warning (docs/tls.md)
        assertThat(saved.line("source tls")).contains(" PASS ").contains("not encrypted (source.tls.mode preferred;"
            + " 127.0.0.1 is this machine)");
        assertThat(saved.line("target state table")).contains("row 'cli_setup' at mysql-bin.");
        assertThat(saved.line("start position")).contains("saved position").contains("takes precedence");
        assertThat(saved.line("target write privileges")).contains("(cli)");
        assertThat(saved.line("source GTIDs")).as("MariaDB's default").contains(" WARN ").contains("gtid_strict_mode=OFF");
        assertThat(saved.line("target BINLOG for hidden columns")).contains(" PASS ")
            .contains("no replicated table is system-versioned or has a long UNIQUE key");
        assertThat(saved.lines().get(saved.lines().size() - 1)).isEqualTo("19 checks: 17 PASS, 2 WARN, 0 FAIL");
        assertThat(fresh.code()).as(fresh.text()).isZero();
        assertThat(fresh.line("target state table")).contains(" PASS ").contains("the first run creates it");
        assertThat(fresh.line("start position")).contains("no saved position").contains("source.start current");
        assertThat(saved.text()).as("one worker: no conflict monitor").doesNotContain("conflict monitor");
        InProcessCli.Output parallel = check(Configs.write(TestApplier.yaml(SERVERS.servers(), "fresh", "current",
            "optimistic", 1, null).replace("  workers: 1\n", "  workers: auto\n")));
        assertThat(parallel.line("conflict monitor")).contains(" PASS ").contains("PROCESS granted")
            .contains("workers: auto");
    }

    @Test
    @Order(2)
    void checkFailsNamingTheFixWhenTheSourceIsMisconfigured() {
        InProcessCli.Output ownId = check(Configs.write(TestApplier.yaml(SERVERS.servers(), "cli_setup", "current",
            "conservative", 1, null).replace("server_id: 4242", "server_id: 1")));
        SERVERS.source().execute("SET GLOBAL binlog_format = STATEMENT");
        InProcessCli.Output statement;
        try {
            statement = check(config("cli_setup", "current", null));
        } finally {
            SERVERS.source().execute("SET GLOBAL binlog_format = ROW");
        }
        SERVERS.source().execute("SET GLOBAL binlog_row_image = MINIMAL");
        InProcessCli.Output minimal;
        try {
            minimal = check(config("cli_setup", "current", null));
        } finally {
            SERVERS.source().execute("SET GLOBAL binlog_row_image = FULL");
        }

        assertThat(ownId.code()).isEqualTo(4);
        assertThat(ownId.line("source server_id")).contains(" FAIL ").contains("is the source's own server_id")
            .contains("set source.server_id");
        assertThat(ownId.lines().get(ownId.lines().size() - 1)).endsWith("1 FAIL [exit 4]");
        assertThat(statement.code()).isEqualTo(4);
        assertThat(statement.line("source binlog_format")).contains(" FAIL ").contains("binlog_format=STATEMENT")
            .contains("SET GLOBAL binlog_format=ROW");
        assertThat(minimal.code()).as("a WARN is no failure").isZero();
        assertThat(minimal.line("source binlog_row_image")).contains(" WARN ").contains("MINIMAL")
            .contains("SET GLOBAL binlog_row_image=FULL");
    }

    @Test
    @Order(3)
    void checkFailsNamingTheGrantWhenAUserLacksAPrivilege() {
        SERVERS.source().execute("SET SESSION sql_log_bin = 0; CREATE USER 'monitor'@'%' IDENTIFIED BY 'monitor';"
            + " GRANT BINLOG MONITOR ON *.* TO 'monitor'@'%'");
        SERVERS.target().execute("CREATE USER 'reader'@'%' IDENTIFIED BY 'reader'", "GRANT SELECT ON cli.* TO 'reader'@'%'");
        String yaml = TestApplier.yaml(SERVERS.servers(), "cli_setup", "current", "conservative", 1, null)
            .replace("user: repl\n  password: repl", "user: monitor\n  password: monitor")
            .replace("user: root\n  password: \"\"", "user: reader\n  password: reader");

        InProcessCli.Output out = check(Configs.write(yaml));

        assertThat(out.code()).isEqualTo(4);
        assertThat(out.line("source privileges")).contains(" FAIL ").contains("lacks REPLICATION SLAVE")
            .contains("GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.*");
        assertThat(out.line("target state table")).contains(" FAIL ").contains("lacks CREATE, SELECT, INSERT, UPDATE, DELETE")
            .contains("GRANT CREATE, SELECT, INSERT, UPDATE, DELETE ON `binlog_applier`.* TO 'reader'");
        assertThat(out.line("target write privileges")).contains(" FAIL ")
            .contains("lacks INSERT, UPDATE, DELETE on `cli`");
        assertThat(out.line("target flush settings")).contains(" WARN ").contains("lacks SUPER");
        assertThat(out.line("start position")).as("the reader cannot see the state row").contains(" PASS ")
            .contains("no saved position");
        InProcessCli.Output parallel = check(Configs.write(yaml.replace("  workers: 1\n", "  workers: 4\n")));
        assertThat(parallel.line("conflict monitor")).contains(" WARN ").contains("lacks PROCESS")
            .contains("with 4 workers").contains("GRANT PROCESS ON *.* TO 'reader'");
    }

    @Test
    @Order(4)
    void checkFailsWhenAnotherReplicaUsesTheServerIdOrTheSourceIsUnreachable() throws Exception {
        // The target, as a MariaDB replica with its I/O thread only, registers server_id 2 with the source.
        SERVERS.target().execute("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=" + SERVERS.source().port()
            + ", MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=no", "START SLAVE IO_THREAD");
        InProcessCli.Output taken;
        try {
            for (int i = 0; i < 100 && SERVERS.source().queryString("SHOW SLAVE HOSTS") == null; i++) {
                Thread.sleep(100);
            }
            // root may list replicas (REPLICATION MASTER ADMIN); repl may not
            taken = check(Configs.write(TestApplier.yaml(SERVERS.servers(), "cli_setup", "current", "conservative", 1,
                null).replace("server_id: 4242", "server_id: 2").replace("user: repl\n  password: repl",
                "user: root\n  password: \"\"")));
        } finally {
            SERVERS.target().execute("STOP SLAVE", "RESET SLAVE ALL");
        }
        int nobody;
        try (ServerSocket s = new ServerSocket(0)) {
            nobody = s.getLocalPort();
        }
        InProcessCli.Output unreachable = check(Configs.write(TestApplier.yaml(SERVERS.servers(), "cli_setup", "current",
            "conservative", 1, null).replace("port: " + SERVERS.source().port(), "port: " + nobody)));

        assertThat(taken.code()).isEqualTo(4);
        assertThat(taken.line("source server_id")).contains(" FAIL ").contains("server_id 2 is used by the replica at")
            .contains("SHOW SLAVE HOSTS");
        assertThat(unreachable.code()).isEqualTo(4);
        assertThat(unreachable.line("source connection")).contains(" FAIL ").contains("cannot reach source 127.0.0.1:"
            + nobody);
        assertThat(unreachable.line("target connection")).as("the target is still checked").contains(" PASS ");
        assertThat(unreachable.line("target state table")).contains(" PASS ");
    }

    @Test
    @Order(5)
    void statusGoesFromNeverStartedToCaughtUpToBehind() throws Exception {
        Path cfg = config("st", TestApplier.currentPosition(SERVERS.source()), null);
        InProcessCli.Output never = InProcessCli.main("status", "--config", cfg.toString());
        InProcessCli.Output neverJson = InProcessCli.main("status", "--config", cfg.toString(), "--json");
        SERVERS.source().execute("INSERT INTO cli.t VALUES (10, 'ten')", "INSERT INTO cli.t VALUES (11, 'eleven')");
        CliRun.Result run = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");
        InProcessCli.Output caughtUp = InProcessCli.main("status", "--config", cfg.toString());
        SERVERS.source().execute("INSERT INTO cli.t VALUES (12, 'twelve')");
        String sourceEnd = TestApplier.currentPosition(SERVERS.source());
        InProcessCli.Output behind = InProcessCli.main("status", "--config", cfg.toString());
        InProcessCli.Output behindJson = InProcessCli.main("status", "--config", cfg.toString(), "--json");
        System.out.println("$ binlog-applier status (behind)\n" + behind.text() + "\n$ binlog-applier status --json\n"
            + behindJson.text());

        assertThat(never.code()).as(never.text()).isZero();
        assertThat(never.line("position")).contains("never started");
        assertThat(neverJson.text()).contains("\"started\":false");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(caughtUp.code()).isZero();
        assertThat(caughtUp.line("applied")).contains("2 transactions");
        assertThat(caughtUp.line("behind")).contains("0 bytes: caught up");
        assertThat(caughtUp.line("lag")).contains("0 s");
        assertThat(caughtUp.line("pending")).contains("none");
        String saved = SERVERS.target().queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
            + " binlog_applier.applier_position WHERE stream = 'st'");
        long bytes = Long.parseLong(sourceEnd.substring(sourceEnd.indexOf(':') + 1))
            - Long.parseLong(saved.substring(saved.indexOf(':') + 1));
        assertThat(behind.line("position")).contains(saved);
        assertThat(behind.line("source end")).contains(sourceEnd);
        assertThat(behind.line("behind")).contains(bytes + " bytes");
        assertThat(behind.line("lag")).contains("at most");
        assertThat(behindJson.text()).contains("\"caught_up\":false").contains("\"bytes_behind\":" + bytes)
            .contains("\"applied_transactions\":2").contains("\"resume_by\":\"file\",\"server_id\":1}")
            .contains("\"source_changed\":false");
        assertThat(behind.line("position")).contains("in server_id 1's binlog");
        assertThat(behind.text()).doesNotContain("source changed");

        // a target not in UTC: the row's time was read in its zone and shown hours off, labelled UTC
        String written = java.time.Instant.ofEpochSecond(0).plusNanos(new java.math.BigDecimal(SERVERS.target()
            .queryString("SELECT UNIX_TIMESTAMP(updated_at) FROM binlog_applier.applier_position WHERE stream = 'st'"))
            .movePointRight(9).longValueExact()).toString();
        InProcessCli.Output zoned;
        SERVERS.target().execute("SET GLOBAL time_zone = '+05:00'");
        try {
            zoned = InProcessCli.main("status", "--config", cfg.toString(), "--json");
        } finally {
            SERVERS.target().execute("SET GLOBAL time_zone = 'SYSTEM'");
        }
        assertThat(zoned.text()).contains("\"updated_at\":\"" + written + "\"");
    }

    @Test
    @Order(6)
    void statusShowsAPendingReplayAndWhatItKnowsWhenTheSourceIsDown() throws Exception {
        Path cfg = config("cli_setup", "current", null);
        SERVERS.target().execute("UPDATE binlog_applier.applier_position SET pending_file = binlog_file,"
            + " pending_offset = binlog_offset, pending_gtid_set = gtid_set WHERE stream = 'cli_setup'");
        InProcessCli.Output pending;
        try {
            pending = InProcessCli.main("status", "--config", cfg.toString());
        } finally {
            SERVERS.target().execute("UPDATE binlog_applier.applier_position SET pending_file = NULL,"
                + " pending_offset = NULL, pending_gtid_set = NULL WHERE stream = 'cli_setup'");
        }
        int nobody;
        try (ServerSocket s = new ServerSocket(0)) {
            nobody = s.getLocalPort();
        }
        InProcessCli.Output down = InProcessCli.main("status", "--config", Configs.write(TestApplier.yaml(
            SERVERS.servers(), "cli_setup", "current", "conservative", 1, null)
            .replace("port: " + SERVERS.source().port(), "port: " + nobody)).toString());

        assertThat(pending.code()).isZero();
        assertThat(pending.line("pending")).contains("the transaction at mysql-bin.").contains("was being applied")
            .contains("replays it idempotently");
        assertThat(down.code()).as(down.text()).isEqualTo(10);
        assertThat(down.line("position")).contains("mysql-bin.");
        assertThat(down.text()).doesNotContain("source end");
        assertThat(down.lines().get(down.lines().size() - 1)).contains("cannot reach source").endsWith("[exit 10]");
    }

    @Test
    @Order(7)
    void runUntilAGtidAppliesExactlyTheTransactionsUpToIt() {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE TABLE cli.g (id INT PRIMARY KEY)");
        String[] gtidAfter = new String[13];
        for (int i = 1; i <= 10; i++) {
            SERVERS.source().execute("INSERT INTO cli.g VALUES (" + i + ")");
            gtidAfter[i] = SERVERS.source().queryString("SELECT @@gtid_binlog_pos");
        }
        Path cfg = config("gtid_until", start, null);

        CliRun.Result five = CliRun.run(120, "run", "--config", cfg.toString(), "--until", gtidAfter[5]);
        List<Long> rowsAtFive = ids();
        String[] stateAtFive = state();
        CliRun.Result again = CliRun.run(120, "run", "--config", cfg.toString(), "--until", gtidAfter[5]);
        String[] stateAgain = state();
        CliRun.Result wrongKind = CliRun.run(120, "run", "--config", cfg.toString(), "--until",
            "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-7");
        String[] stateAfterWrongKind = state();
        System.out.println("$ binlog-applier run --until (a MySQL set)\n" + wrongKind.output());
        CliRun.Result ten = CliRun.run(120, "run", "--config", cfg.toString(), "--until", gtidAfter[10]);
        List<Long> rowsAtTen = ids();

        assertThat(five.exitCode()).as(five.output()).isZero();
        assertThat(rowsAtFive).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(stateAtFive[0]).isEqualTo(gtidAfter[5]);
        assertThat(SERVERS.source().queryString("SELECT BINLOG_GTID_POS('" + stateAtFive[1] + "', " + stateAtFive[2] + ")"))
            .as("the saved file position is just past that transaction").isEqualTo(gtidAfter[5]);
        assertThat(again.exitCode()).as(again.output()).isZero();
        assertThat(again.output()).contains("already at");
        assertThat(stateAgain).containsExactly(stateAtFive);
        assertThat(wrongKind.exitCode()).as(wrongKind.output()).isEqualTo(2);
        assertThat(wrongKind.lastLine()).contains("is a MySQL GTID set but the source is MariaDB")
            .contains("give a GTID position such as 0-1-100").endsWith("[exit 2]");
        assertThat(stateAfterWrongKind).containsExactly(stateAtFive);
        assertThat(ten.exitCode()).as(ten.output()).isZero();
        assertThat(rowsAtTen).hasSize(10);
        assertThat(state()[0]).isEqualTo(gtidAfter[10]);
    }

    @Test
    @Order(8)
    void runUntilAGtidTheSourceSkippedStopsBeforeTheFirstTransactionPastIt() {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE TABLE cli.skip (id INT PRIMARY KEY)", "INSERT INTO cli.skip VALUES (1)");
        String before = SERVERS.source().queryString("SELECT @@gtid_binlog_pos");
        long seq = Long.parseLong(before.substring(before.lastIndexOf('-') + 1));
        SERVERS.source().execute("SET SESSION gtid_seq_no = " + (seq + 100) + "; INSERT INTO cli.skip VALUES (2)");
        String goal = "0-1-" + (seq + 50);

        CliRun.Result r = CliRun.run(120, "run", "--config", config("gtid_skip", start, null).toString(), "--until", goal);

        System.out.println("$ binlog-applier run --until " + goal + "\n" + r.output());
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("the binlog from the start position on has no domain 0 sequence " + (seq + 50))
            .contains("stopping before 0-1-" + (seq + 100));
        assertThat(SERVERS.target().queryString("SELECT GROUP_CONCAT(id) FROM cli.skip")).isEqualTo("1");
        assertThat(SERVERS.target().queryString("SELECT gtid_set FROM binlog_applier.applier_position"
            + " WHERE stream = 'gtid_skip'")).isEqualTo(before);
    }

    /**
     * Issue 17 #3: rows of a table with triggers on the target go as BINLOG statements under every
     * method, so check names the target vendor's BINLOG privilege when the user lacks it.
     */
    @Test
    @Order(99)
    void checkNamesTheBinlogPrivilegeForTablesWithTriggersOnTheTarget() {
        SERVERS.target().execute("CREATE TABLE cli.trig_t (id INT PRIMARY KEY)",
            "CREATE TABLE cli.trig_log (id INT)",
            "CREATE TRIGGER cli.trig_t_ai AFTER INSERT ON cli.trig_t FOR EACH ROW INSERT INTO cli.trig_log VALUES (NEW.id)",
            "CREATE TABLE cli.hist_t (id INT PRIMARY KEY) WITH SYSTEM VERSIONING",
            "CREATE TABLE cli.hash_t (id INT PRIMARY KEY, t TEXT, UNIQUE KEY (t))",
            "CREATE TABLE cli.mem_t (id INT, UNIQUE KEY (id)) ENGINE=MEMORY",
            "CREATE USER 'writer'@'%' IDENTIFIED BY 'writer'", "GRANT ALL PRIVILEGES ON cli.* TO 'writer'@'%'",
            "GRANT ALL PRIVILEGES ON binlog_applier.* TO 'writer'@'%'");
        try {
            InProcessCli.Output root = check(config("cli_setup", "current", null));
            InProcessCli.Output writer = check(Configs.write(TestApplier.yaml(SERVERS.servers(), "cli_setup", "current",
                "conservative", 1, null).replace("user: root\n  password: \"\"", "user: writer\n  password: writer")));

            assertThat(root.line("target BINLOG for trigger tables")).contains(" PASS ").contains("cli.trig_t");
            assertThat(writer.line("target BINLOG for trigger tables")).contains(" FAIL ").contains("cli.trig_t")
                .contains("GRANT BINLOG REPLAY ON *.* TO 'writer'").doesNotContain("BINLOG_ADMIN");
            assertThat(writer.code()).isEqualTo(4);
            // system versioning and a long unique key go as BINLOG statements too; a MEMORY table's HASH key is no long key
            assertThat(root.line("target BINLOG for hidden columns")).contains(" PASS ").contains("2 system-versioned"
                + " tables or tables with a long UNIQUE key (cli.hash_t, cli.hist_t)");
            assertThat(writer.line("target BINLOG for hidden columns")).contains(" FAIL ").contains("cli.hist_t")
                .contains("GRANT BINLOG REPLAY ON *.* TO 'writer'");
        } finally {
            SERVERS.target().execute("DROP USER 'writer'@'%'", "DROP TABLE cli.trig_t, cli.trig_log",
                "DROP TABLE cli.hist_t, cli.hash_t, cli.mem_t");
        }
    }

    @Test
    @Order(97)
    void checkLooksForTheSchemasTheFilterAppliesUnderTheirTargetNames() {
        // a source schema the target lacks: a warning without a filter, none when the filter leaves it out, and a
        // renamed schema is looked for under its target name
        SERVERS.source().execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE only_src", "CREATE DATABASE ren_src");
        SERVERS.target().execute("CREATE DATABASE ren_dst");
        try {
            assertThat(check(config("cli_setup", "current", null)).line("schemas on both servers")).contains(" WARN ")
                .contains("only_src");
            InProcessCli.Output filtered = check(config("cli_setup", "current",
                "filter:\n  include: [\"cli.*\", \"ren_src.*\"]\n  rename: {ren_src: ren_dst}\n"));
            assertThat(filtered.line("schemas on both servers")).contains(" PASS ").contains("and the filter applies");
            SERVERS.target().execute("DROP DATABASE ren_dst");
            assertThat(check(config("cli_setup", "current",
                "filter:\n  include: [\"cli.*\", \"ren_src.*\"]\n  rename: {ren_src: ren_dst}\n"))
                .line("schemas on both servers")).contains(" WARN ").contains("ren_dst").doesNotContain("only_src");
        } finally {
            SERVERS.source().execute("SET SESSION sql_log_bin = 0", "DROP DATABASE only_src", "DROP DATABASE ren_src");
            SERVERS.target().execute("DROP DATABASE IF EXISTS ren_dst");
        }
    }

    @Test
    @Order(98)
    void checkFailsWhenTheSavedFilePositionIsOfAnotherServer() {
        // The setup run recorded the source (server_id 1) with its position; as if it had been server 99's.
        assertThat(SERVERS.target().queryLong("SELECT source_server_id FROM binlog_applier.applier_position"
            + " WHERE stream = 'cli_setup'")).isEqualTo(1);
        SERVERS.target().execute("UPDATE binlog_applier.applier_position SET source_server_id = 99"
            + " WHERE stream = 'cli_setup'");
        try {
            InProcessCli.Output out = check(config("cli_setup", "current", null));
            assertThat(out.code()).isEqualTo(4);
            assertThat(out.line("start position")).contains(" FAIL ").contains("is server_id 1, but the saved position")
                .contains("is in server_id 99's binlog").contains("point source back at server_id 99");
            // status says the same without stopping anything: exit 0, a row of its own, a flag in the JSON
            InProcessCli.Output status = InProcessCli.main("status", "--config", config("cli_setup", "current", null)
                .toString());
            assertThat(status.code()).as(status.text()).isZero();
            assertThat(status.line("position")).contains("(resume by file), in server_id 99's binlog");
            assertThat(status.line("source end")).contains(", server_id 1)");
            assertThat(status.line("source changed")).contains("the next run stops with exit 19 and applies nothing:"
                + " source 127.0.0.1:" + SERVERS.source().port() + " is server_id 1, but the saved position")
                .contains("is in server_id 99's binlog");
            assertThat(InProcessCli.main("status", "--config", config("cli_setup", "current", null).toString(),
                "--json").text()).contains("\"server_id\":99}", "\"source_changed\":true");
        } finally {
            SERVERS.target().execute("UPDATE binlog_applier.applier_position SET source_server_id = 1"
                + " WHERE stream = 'cli_setup'");
        }
        assertThat(check(config("cli_setup", "current", null)).line("start position")).contains(" PASS ");
    }

    @Test
    @Order(100)
    void checkFailsForAPositionTheSourceNoLongerHas() throws Exception {
        SERVERS.source().execute("FLUSH BINARY LOGS", "INSERT INTO cli.t VALUES (100, 'after flush')");
        String current = TestApplier.currentPosition(SERVERS.source());
        String file = current.substring(0, current.indexOf(':'));
        for (int i = 0; i < 100; i++) {
            SERVERS.source().execute("PURGE BINARY LOGS TO '" + file + "'");
            if (file.equals(firstBinlog())) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(firstBinlog()).isEqualTo(file);

        InProcessCli.Output savedFile = check(config("cli_setup", "current", null));
        InProcessCli.Output gtidStart = check(config("never_ran", "0-1-1", null));
        InProcessCli.Output ahead = check(config("never_ran", "0-1-999999", null));
        InProcessCli.Output fileStart = check(config("never_ran", "mysql-bin.000001:4", null));

        assertThat(savedFile.code()).isEqualTo(4);
        assertThat(savedFile.line("start position")).contains(" FAIL ").contains("saved position mysql-bin.000001:")
            .contains("no longer has binlog file mysql-bin.000001").contains("re-seed the target");
        assertThat(gtidStart.line("start position")).contains(" FAIL ").contains("source.start 0-1-1")
            .contains("oldest binlog " + file + " starts after").contains("were purged");
        assertThat(ahead.line("start position")).contains(" FAIL ").contains("0-1-999999 is ahead of the source");
        assertThat(fileStart.line("start position")).contains(" FAIL ").contains("no longer has binlog file");
    }

    private static String firstBinlog() {
        try (var c = SERVERS.source().connect(); var s = c.createStatement(); var rs = s.executeQuery("SHOW BINARY LOGS")) {
            rs.next();
            return rs.getString(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Long> ids() {
        String v = SERVERS.target().queryString("SELECT GROUP_CONCAT(id ORDER BY id) FROM cli.g");
        return v == null ? List.of() : java.util.Arrays.stream(v.split(",")).map(Long::parseLong).toList();
    }

    /** gtid_set, binlog_file, binlog_offset, applied_transactions, updated_at of the gtid_until row. */
    private static String[] state() {
        return SERVERS.target().queryString("SELECT CONCAT_WS('|', gtid_set, binlog_file, binlog_offset,"
            + " applied_transactions, updated_at) FROM binlog_applier.applier_position WHERE stream = 'gtid_until'")
            .split("\\|");
    }
}
