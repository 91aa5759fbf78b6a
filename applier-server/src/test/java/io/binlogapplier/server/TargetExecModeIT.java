package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.position.BinlogCoordinates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A BINLOG statement runs the target's replication code, which obeys the target's replica settings. This
 * target is started with {@code --slave-skip-errors=1032} (a missing row is skipped, answered OK and kept
 * as an Error-level warning), and some tests set {@code slave_exec_mode=IDEMPOTENT} (a duplicate key is
 * overwritten without even a warning). binlog-applier must stop on a skipped error as on any other, refuse
 * an explicit binlog method under IDEMPOTENT, and let {@code auto} choose sql there.
 */
class TargetExecModeIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair(List.of(), List.of("--slave-skip-errors=1032"));

    private static final int ROWS = 20;
    private static final int PLANTED = 13;

    /** Schema {@code db} on both servers with ROWS rows, row PLANTED deleted on the target only; returns the start. */
    private static String divergedTable(String db, boolean targetTrigger) {
        for (MariaDb m : List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=InnoDB",
                "CREATE TABLE " + db + ".audit (id INT AUTO_INCREMENT PRIMARY KEY, t_id INT) ENGINE=InnoDB",
                "INSERT INTO " + db + ".t SELECT seq, 0 FROM " + db + ".seq_1_to_" + ROWS);
        }
        if (targetTrigger) { // on the target only: its rows then go as BINLOG statements under the sql method too
            SERVERS.target().execute("CREATE TRIGGER " + db + ".t_au AFTER UPDATE ON " + db + ".t FOR EACH ROW"
                + " INSERT INTO " + db + ".audit (t_id) VALUES (NEW.id)");
        }
        SERVERS.target().execute("DELETE FROM " + db + ".t WHERE id = " + PLANTED);
        return TestApplier.currentPosition(SERVERS.source());
    }

    private static Path config(String db, String start, String method) {
        String yaml = TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            method == null ? null : "  method: " + method + "\n");
        return Configs.write(method == null ? yaml.replace("  method: sql\n", "") : yaml);
    }

    private static CliRun.Result run(Path cfg) {
        CliRun.Result r = CliRun.run(120, "run", "--config", cfg.toString(), "--until", "current");
        System.out.println(r.output());
        return r;
    }

    @Test
    void aRowChangeTheTargetSkipsStopsTheBinlogMethodAndNothingOfItsUnitCommits() {
        String start = divergedTable("skip_binlog", false);
        SERVERS.source().execute("UPDATE skip_binlog.t SET v = 1 WHERE id < " + PLANTED);
        String failingAt = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("UPDATE skip_binlog.t SET v = 2 WHERE id >= " + PLANTED);

        CliRun.Result r = run(config("skip_binlog", start, "binlog"));

        assertThat(SERVERS.target().queryString("SELECT @@slave_skip_errors")).isEqualTo("1032");
        assertThat(r.exitCode()).as(r.output()).isEqualTo(23);
        assertThat(r.output()).contains("`skip_binlog`.`t`").contains("at " + failingAt);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM skip_binlog.t WHERE v = 2"))
            .as("the failing transaction's other rows are rolled back").isZero();
        BinlogCoordinates saved = BinlogCoordinates.parseOrNull(TestApplier.savedPosition(SERVERS.target(),
            "skip_binlog"));
        assertThat(BinlogCoordinates.parseOrNull(failingAt).atOrAfter(saved)).as("saved %s", saved).isTrue();
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM skip_binlog.t WHERE v = 1"))
            .as("the transaction before it: applied exactly when the saved position is past it")
            .isEqualTo(saved.equals(BinlogCoordinates.parseOrNull(failingAt)) ? PLANTED - 1 : 0);
    }

    @Test
    void aSkippedRowOfATableWithTargetTriggersStopsTheSqlMethodToo() {
        String start = divergedTable("skip_trig", true);
        SERVERS.source().execute("UPDATE skip_trig.t SET v = 2 WHERE id >= " + PLANTED);

        CliRun.Result r = run(config("skip_trig", start, "sql"));

        assertThat(r.exitCode()).as(r.output()).isEqualTo(23);
        assertThat(r.output()).contains("Can't find record in 't' (the target's replica settings skipped it");
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM skip_trig.t WHERE v = 2")).isZero();
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM skip_trig.audit")).isZero();
    }

    @Test
    void anIdempotentExecModeRefusesTheBinlogMethodAndAutoChoosesSql() {
        String start = divergedTable("idem", false);
        SERVERS.target().execute("INSERT INTO idem.t VALUES (" + PLANTED + ", 0)"); // no difference left
        SERVERS.source().execute("UPDATE idem.t SET v = 3", "INSERT INTO idem.t VALUES (" + (ROWS + 1) + ", 3)");
        SERVERS.target().execute("SET GLOBAL slave_exec_mode = 'IDEMPOTENT'");
        try {
            Path binlog = config("idem", start, "binlog");
            InProcessCli.Output binlogCheck = InProcessCli.main("check", "--config", binlog.toString());
            CliRun.Result refused = run(binlog);

            assertThat(binlogCheck.line("target BINLOG statements")).contains(" FAIL ")
                .contains("slave_exec_mode=IDEMPOTENT");
            assertThat(refused.exitCode()).as(refused.output()).isEqualTo(27);
            assertThat(refused.output()).contains("apply.method binlog: the target's slave_exec_mode=IDEMPOTENT makes a"
                + " BINLOG statement overwrite a duplicate key and skip a missing row without an error, so differences"
                + " would go unnoticed: SET GLOBAL slave_exec_mode = 'STRICT', or set apply.method: sql");
            assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM idem.t WHERE v = 3")).isZero();

            Path auto = config("idem", start, null);
            InProcessCli.Output autoCheck = InProcessCli.main("check", "--config", auto.toString());
            CliRun.Result ran = run(auto);

            assertThat(autoCheck.line("apply method")).contains(" WARN ").contains("auto: using sql because the"
                + " target's slave_exec_mode=IDEMPOTENT");
            assertThat(autoCheck.line("target exec mode")).contains(" WARN ").contains("tables with triggers");
            assertThat(ran.exitCode()).as(ran.output()).isZero();
            assertThat(ran.output()).contains("apply.method auto: using sql because the target's"
                + " slave_exec_mode=IDEMPOTENT").contains("WARN");
            TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "idem");
        } finally {
            SERVERS.target().execute("SET GLOBAL slave_exec_mode = 'STRICT'");
        }
    }
}
