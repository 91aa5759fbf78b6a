package io.binlogapplier.server;

import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The applier in its own JVM is killed with SIGKILL at random moments during a 50,000-transaction
 * apply (once while starting, then at random applied counts) and restarted each time: at the end every table matches, the state row equals the
 * source's position, and no run ever met a duplicate key or a missing row.
 */
class CrashSafetyIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final int KILLS = 6;

    @ParameterizedTest(name = "{0} mode, {1} workers, apply.method {2}")
    @CsvSource({"conservative, 1, sql", "optimistic, 4, binlog"})
    void sigkillAtRandomMomentsLosesNothingAndAppliesNothingTwice(String mode, int workers, String method)
        throws Exception {
        SERVERS.target().execute("DROP DATABASE IF EXISTS crash", "DROP DATABASE IF EXISTS binlog_applier");
        SERVERS.source().execute("DROP DATABASE IF EXISTS crash");
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().runScript(resource("/scenarios/crash-workload.sql"));
        long transactions = SERVERS.source().queryLong("SELECT COUNT(*) FROM crash.log")
            + SERVERS.source().queryLong("SELECT COUNT(*) FROM crash.nopk");
        assertThat(transactions).as("workload size").isGreaterThan(45_000);
        Path cfg = Configs.write(TestApplier.yaml(SERVERS.servers(), "crash", start, mode, workers,
            "  method: " + method + "\n"));
        long seed = Long.getLong("crash.seed", System.nanoTime());
        Random random = new Random(seed);
        List<String> outputs = new ArrayList<>();
        List<Long> appliedWhenKilled = new ArrayList<>();

        // The first kill lands during the start; the others once the applied count passes a random mark
        // (plus up to 30 ms, so mid-unit as often as not), however fast this machine applies.
        long[] marks = random.longs(KILLS - 1, 1, transactions * 9 / 10).sorted().toArray();
        for (int k = 0; k < KILLS; k++) {
            try (CliRun run = CliRun.start("run", "--config", cfg.toString(), "--until", "current")) {
                if (k == 0) {
                    Thread.sleep(300 + random.nextInt(1200));
                } else {
                    awaitApplied(run, marks[k - 1], 120_000);
                    Thread.sleep(random.nextInt(30));
                }
                boolean wasAlive = run.alive();
                int exit = run.kill();
                outputs.add(run.output());
                assertThat(wasAlive ? 137 : exit).as("seed " + seed + ", run " + k + ":\n" + run.output())
                    .isIn(0, 137);
                appliedWhenKilled.add(applied());
            }
        }
        System.out.println("crash test " + mode + "/" + workers + "/" + method + " seed " + seed
            + ": applied transactions at each SIGKILL " + appliedWhenKilled);
        CliRun.Result last = CliRun.run(600, "run", "--config", cfg.toString(), "--until", "current");
        outputs.add(last.output());

        assertThat(last.exitCode()).as("seed " + seed + ":\n" + last.output()).isZero();
        for (String out : outputs) {
            assertThat(out).doesNotContain("Duplicate entry").doesNotContain("found no row").doesNotContain("[exit ");
        }
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), "crash");
        assertThat(SERVERS.target().queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
            + " binlog_applier.applier_position WHERE stream = 'crash'"))
            .isEqualTo(TestApplier.currentPosition(SERVERS.source()));
        assertThat(SERVERS.target().queryString("SELECT gtid_set FROM binlog_applier.applier_position"
            + " WHERE stream = 'crash'")).isEqualTo(SERVERS.source().queryString("SELECT @@gtid_binlog_pos"));
        assertThat(appliedWhenKilled).as("the kills landed while applying (seed " + seed + ")")
            .anyMatch(n -> n > 0).anyMatch(n -> n < 49_000);
    }

    /** Waits until the target's state row counts {@code mark} applied transactions, or the run ends. */
    private static void awaitApplied(CliRun run, long mark, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (run.alive() && System.currentTimeMillis() < deadline && applied() < mark) {
            Thread.sleep(5);
        }
    }

    private static long applied() {
        if (SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA ="
            + " 'binlog_applier' AND TABLE_NAME = 'applier_position'") == 0) {
            return 0; // killed before the first start created the state table
        }
        String v = SERVERS.target().queryString("SELECT applied_transactions FROM binlog_applier.applier_position"
            + " WHERE stream = 'crash'");
        return v == null ? 0 : Long.parseLong(v);
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = CrashSafetyIT.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
