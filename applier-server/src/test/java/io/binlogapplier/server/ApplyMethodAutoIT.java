package io.binlogapplier.server;

import io.binlogapplier.apply.MethodChoice;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.pipeline.Applier;
import io.binlogapplier.pipeline.PipelineMetrics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * apply.method left out (auto) against a real source and target, both MariaDB of one version: the
 * target user's privileges decide. {@code run} logs the choice once, {@code check} shows the same
 * decision as a row, and the data arrives either way. Each test applies its own schema, from a start
 * position taken just before it.
 */
class ApplyMethodAutoIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @BeforeAll
    static void targetUsers() {
        SERVERS.target().execute(
            "CREATE USER 'fast'@'%' IDENTIFIED BY 'fast'",
            "GRANT ALL ON `auto_fast`.* TO 'fast'@'%'",
            "GRANT ALL ON `binlog_applier`.* TO 'fast'@'%'",
            "GRANT BINLOG REPLAY ON *.* TO 'fast'@'%'",
            "CREATE USER 'plain'@'%' IDENTIFIED BY 'plain'",
            "GRANT ALL ON `auto_plain`.* TO 'plain'@'%'",
            "GRANT ALL ON `binlog_applier`.* TO 'plain'@'%'",
            "CREATE USER 'super'@'%' IDENTIFIED BY 'super'",
            "GRANT SUPER ON *.* TO 'super'@'%'",
            "GRANT ALL ON `auto_super`.* TO 'super'@'%'",
            "GRANT ALL ON `binlog_applier`.* TO 'super'@'%'",
            "CREATE USER 'trig'@'%' IDENTIFIED BY 'trig'",
            "GRANT ALL ON `auto_trig`.* TO 'trig'@'%'",
            "GRANT ALL ON `binlog_applier`.* TO 'trig'@'%'");
    }

    /** Tables with and without a primary key, inserts, updates and deletes, in schema {@code db}. */
    private static void writeOnSource(String db) {
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".orders (id INT PRIMARY KEY, customer VARCHAR(40), amount DECIMAL(10,2),"
                + " placed DATETIME(6), note BLOB)",
            "CREATE TABLE " + db + ".events (what VARCHAR(20), at TIMESTAMP(3) NULL)",
            "INSERT INTO " + db + ".orders VALUES (1, 'ann', 10.50, '2026-01-05 10:00:00.123456', x'00ff'),"
                + " (2, 'bob', 0.01, NULL, NULL), (3, 'cé', 999.99, '1999-12-31 23:59:59', 'text')",
            "UPDATE " + db + ".orders SET amount = amount * 2, note = NULL WHERE id <= 2",
            "DELETE FROM " + db + ".orders WHERE id = 3",
            "INSERT INTO " + db + ".events VALUES ('a', '2026-01-05 10:00:00.5'), ('a', NULL), ('b', NULL)",
            "DELETE FROM " + db + ".events WHERE what = 'b'",
            "UPDATE " + db + ".events SET what = 'c' WHERE at IS NULL");
    }

    private static Path config(String name, String start, String user) {
        return Configs.write(TestApplier.yamlWithDefaultMethod(SERVERS.servers(), name, start, "conservative", 1)
            .replace("  user: root\n  password: \"\"\n", "  user: " + user + "\n  password: " + user + "\n"));
    }

    private static InProcessCli.Output check(Path cfg) {
        InProcessCli.Output out = InProcessCli.main("check", "--config", cfg.toString());
        System.out.println("$ binlog-applier check\n" + out.text());
        return out;
    }

    private static long autoLines(String output) {
        return output.lines().filter(l -> l.contains("apply.method auto:")).count();
    }

    @Test
    void aTargetUserWithBinlogReplayGetsTheBinlogMethod() throws Exception {
        String start = TestApplier.currentPosition(SERVERS.source());
        writeOnSource("auto_fast");
        Path cfg = config("auto_fast", start, "fast");

        InProcessCli.Output checked = check(cfg);
        CliRun.Result run = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");
        System.out.println(run.output());

        assertThat(checked.line("apply method")).contains(" PASS ").contains("auto: using binlog because the target"
            + " (MariaDB ").contains("user 'fast' may run BINLOG statements (BINLOG REPLAY)");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(autoLines(run.output())).as("one line says which method and why").isEqualTo(1);
        assertThat(run.output()).contains("INFO Applier - apply.method auto: using binlog because the target (MariaDB ")
            .contains("; set apply.method: sql to use the sql method instead");
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "auto_fast");

        // what /health and the metrics read: the resolved method, and that auto chose it
        ApplierConfig loaded = new ConfigLoader().load(cfg);
        Applier again = new Applier(loaded, PipelineMetrics.NONE, 30_000);
        assertThat(again.run(new Applier.Until.Current()).nothingToDo()).isTrue();
        MethodChoice used = again.status().applyMethod();
        assertThat(used.method()).isEqualTo(ApplyMethod.BINLOG);
        assertThat(used.auto()).isTrue();
        assertThat(used.summary()).isEqualTo(checked.line("apply method").replaceFirst("^apply method\\s+PASS\\s+", ""));
    }

    @Test
    void aTargetUserWithoutItGetsSqlAndTheDataStillArrives() {
        String start = TestApplier.currentPosition(SERVERS.source());
        writeOnSource("auto_plain");
        Path cfg = config("auto_plain", start, "plain");

        InProcessCli.Output checked = check(cfg);
        CliRun.Result run = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");
        System.out.println(run.output());

        assertThat(checked.code()).as("sql works: a WARN, not a FAIL").isZero();
        assertThat(checked.line("apply method")).contains(" WARN ").endsWith("auto: using sql because the target user"
            + " 'plain' lacks BINLOG REPLAY; GRANT BINLOG REPLAY ON *.* TO 'plain' to use the faster binlog method");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(autoLines(run.output())).isEqualTo(1);
        assertThat(run.output()).contains("INFO Applier - apply.method auto: using sql because the target user 'plain'"
            + " lacks BINLOG REPLAY; GRANT BINLOG REPLAY ON *.* TO 'plain' to use the faster binlog method");
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "auto_plain");
    }

    @Test
    void explicitMethodsAreUsedAsConfiguredAndCheckShowsNoAutoRow() {
        Path sql = Configs.write(TestApplier.yaml(SERVERS.servers(), "explicit", "current", "conservative", 1, null));

        InProcessCli.Output checked = check(sql);

        assertThat(checked.text()).doesNotContain("apply method").doesNotContain("target BINLOG statements");
    }

    /**
     * What {@link MethodChoice#binlogPrivileges} assumes, asked of the server itself: this MariaDB
     * (10.11 or later) lets a user with SUPER and no BINLOG REPLAY run BINLOG statements, so auto counts
     * SUPER there and an explicit {@code method: binlog} applies everything.
     */
    @Test
    void superAloneRunsBinlogStatementsOnThisTarget() throws IOException {
        String start = TestApplier.currentPosition(SERVERS.source());
        writeOnSource("auto_super");
        Path auto = config("auto_super", start, "super");
        Path binlog = Configs.write(Files.readString(auto).replace("  workers: 1\n", "  workers: 1\n  method: binlog\n"));

        InProcessCli.Output checked = check(auto);
        CliRun.Result run = CliRun.run(120, "run", "--config", binlog.toString(), "--until", "current");
        System.out.println(run.output());

        assertThat(SERVERS.target().queryString("SELECT VERSION()")).as("SUPER counts from MariaDB 10.11")
            .matches("^(1[1-9]|10\\.(1[1-9]|[2-9][0-9]))\\..*");
        assertThat(checked.line("apply method")).contains(" PASS ").contains("auto: using binlog")
            .contains("user 'super' may run BINLOG statements (SUPER)");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(autoLines(run.output())).as("explicit binlog: no auto line").isZero();
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "auto_super");
    }

    @Test
    void aTableWithTargetTriggersStopsASqlRunWithoutTheBinlogPrivilegeAndNothingOfItsUnitCommits() {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE auto_trig",
            "CREATE TABLE auto_trig.t (id INT PRIMARY KEY, v INT)",
            "CREATE TABLE auto_trig.audit (id INT AUTO_INCREMENT PRIMARY KEY, t_id INT)");
        Path cfg = config("auto_trig", start, "trig");
        CliRun.Result tables = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");
        assertThat(tables.exitCode()).as(tables.output()).isZero();
        // A trigger on the target only: applied as SQL, the INSERT would fire it there.
        SERVERS.target().execute("CREATE TRIGGER auto_trig.t_ai AFTER INSERT ON auto_trig.t FOR EACH ROW"
            + " INSERT INTO auto_trig.audit (t_id) VALUES (NEW.id)");
        SERVERS.source().execute("INSERT INTO auto_trig.t VALUES (1, 1)");

        CliRun.Result run = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");

        assertThat(run.exitCode()).as(run.output()).isEqualTo(25);
        assertThat(run.output()).contains("BINLOG REPLAY");
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM auto_trig.audit")).isZero();
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM auto_trig.t")).isZero();
    }
}
