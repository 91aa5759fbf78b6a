package io.binlogapplier.server;

import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.Sysbench;
import io.binlogapplier.harness.TestApplier;
import io.binlogapplier.pipeline.Applier;
import io.binlogapplier.pipeline.PipelineMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code verify} on sysbench tables while sysbench writes to the source and the applier runs: no false
 * difference in several runs, then planted differences (a changed cell in the first chunk, a missing
 * row in a middle one, an extra row and a changed last row in the last) are each reported. The load
 * writes to every table but the last, where the differences are planted (sysbench would overwrite a
 * planted row, or stop the applier on a deleted one). Small by default; the size of the README's
 * figures: {@code -Dverify.load.tables=10 -Dverify.load.rows=200000 -Dverify.load.runs=5 -Dverify.load.rate=0}.
 */
class VerifyLoadIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    private static final int TABLES = Integer.getInteger("verify.load.tables", 3);
    private static final int ROWS = Integer.getInteger("verify.load.rows", 20_000);
    private static final int RUNS = Integer.getInteger("verify.load.runs", 2);
    /** sysbench transactions per second; 0: as fast as it can (for the throughput figures). */
    private static final int RATE = Integer.getInteger("verify.load.rate", 300);
    private static final Pattern TPS = Pattern.compile("transactions:\\s+(\\d+)\\s+\\(([0-9.]+) per sec");

    @Test
    void noFalseDifferenceUnderAWriteLoadAndEveryPlantedOneReported() throws Exception {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE sbtest");
        long t0 = System.nanoTime();
        Sysbench.run(SERVERS.source(), "sbtest", "oltp_write_only", "prepare", "--tables=" + TABLES,
            "--table-size=" + ROWS);
        System.out.printf("prepared %d tables x %d rows in %.1f s%n", TABLES, ROWS, (System.nanoTime() - t0) / 1e9);
        String yaml = TestApplier.yaml(SERVERS.servers(), "load", start, "optimistic", 4, null)
            .replace("  method: sql\n", "") + "verify:\n  rows_per_second: 0\n";
        Path cfg = Configs.write(yaml);
        Applier applier = new Applier(new ConfigLoader().parse(yaml, "test", "load"), PipelineMetrics.NONE, 30_000);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread run = new Thread(() -> {
            try {
                applier.run(new Applier.Until.Forever());
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "verify-load-applier");
        run.start();
        AtomicBoolean loading = new AtomicBoolean(true);
        List<String> loadRuns = new ArrayList<>();
        Thread load = null;
        try {
            awaitCaughtUp(failure, 600);
            System.out.printf("applied in %.1f s%n", (System.nanoTime() - t0) / 1e9);
            String baseline = Sysbench.run(SERVERS.source(), "sbtest", "oltp_write_only", "run",
                "--tables=" + (TABLES - 1), "--table-size=" + ROWS, "--threads=2", "--rate=" + RATE, "--time=20");
            System.out.println("load without verify: " + tps(baseline));
            load = new Thread(() -> {
                while (loading.get()) {
                    String out = Sysbench.run(SERVERS.source(), "sbtest", "oltp_write_only", "run",
                        "--tables=" + (TABLES - 1), "--table-size=" + ROWS, "--threads=2", "--rate=" + RATE, "--time=10");
                    synchronized (loadRuns) {
                        loadRuns.add(tps(out));
                    }
                }
            }, "verify-load-sysbench");
            load.start();
            Thread.sleep(2_000);
            for (int i = 1; i <= RUNS; i++) {
                long v0 = System.nanoTime();
                InProcessCli.Output out = InProcessCli.main("verify", "--config", cfg.toString());
                System.out.printf("verify run %d: exit %d in %.1f s%n%s%n", i, out.code(), (System.nanoTime() - v0) / 1e9,
                    out.text().lines().filter(l -> !l.contains(" INFO ")).reduce("", (a, b) -> a + b + "\n"));
                assertThat(out.code()).as(out.text()).isZero();
                assertThat(failure.get()).isNull();
            }
            String last = "sbtest" + TABLES;
            SERVERS.target().execute("UPDATE sbtest." + last + " SET c = 'planted' WHERE id = 1",
                "DELETE FROM sbtest." + last + " WHERE id = " + (ROWS / 2),
                "UPDATE sbtest." + last + " SET k = k + 1 WHERE id = " + ROWS,
                "INSERT INTO sbtest." + last + " (id, k, c, pad) VALUES (" + (ROWS + 1000) + ", 1, 'extra', 'extra')");
            InProcessCli.Output out = InProcessCli.main("verify", "--config", cfg.toString());
            System.out.println("verify with planted differences: exit " + out.code() + "\n" + out.text());
            assertThat(out.code()).as(out.text()).isEqualTo(38);
            assertThat(out.text()).contains("id=1 changed").contains("id=" + (ROWS / 2) + " missing on the target")
                .contains("id=" + ROWS + " changed").contains("id=" + (ROWS + 1000) + " extra on the target")
                .contains(TABLES + " tables, " + (TABLES - 1) + " match, 1 differ, 0 unverified");
            assertThat(out.line("sbtest." + last)).contains("DIFFERS");
        } finally {
            loading.set(false);
            if (load != null) {
                load.join(30_000);
            }
            applier.requestStop();
            run.join(30_000);
            synchronized (loadRuns) {
                System.out.println("load during verify (10 s runs): " + loadRuns);
            }
        }
        assertThat(failure.get()).isNull();
    }

    private static String tps(String sysbenchOutput) {
        Matcher m = TPS.matcher(sysbenchOutput);
        return m.find() ? m.group(2) + " tps" : "? tps";
    }

    private static void awaitCaughtUp(AtomicReference<Throwable> failure, int seconds) throws InterruptedException {
        String goal = TestApplier.currentPosition(SERVERS.source());
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (true) {
            if (failure.get() != null) {
                throw new AssertionError("the applier failed", failure.get());
            }
            String at;
            try {
                at = SERVERS.target().queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM"
                    + " binlog_applier.applier_position WHERE stream = 'load'");
            } catch (RuntimeException e) {
                at = null;
            }
            if (goal.equals(at)) {
                return;
            }
            assertThat(System.nanoTime()).as("caught up with " + goal + " (at " + at + ")").isLessThan(deadline);
            Thread.sleep(500);
        }
    }
}
