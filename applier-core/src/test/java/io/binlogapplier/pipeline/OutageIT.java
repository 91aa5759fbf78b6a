package io.binlogapplier.pipeline;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.errors.Side;
import io.binlogapplier.harness.MariaDb;
import io.binlogapplier.harness.ServerPair;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TcpProxy;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One applier process rides out every kind of outage under a steady write load, with no restart of
 * its own: each side is reset (every connection RST), silently partitioned (a {@link TcpProxy} that
 * drops everything and tells nobody) and SIGKILLed and restarted. After each fault the applier must
 * notice it (state {@code reconnecting}, with the side) and resume once the fault heals; at the end
 * every table matches the source. Prints, per fault, the time to notice and the time to resume.
 * {@code -Doutage.rounds=N} repeats the six faults N times (the default 1 keeps it under 3 minutes);
 * {@code -Doutage.partitionSeconds=S} holds each partition S seconds (default 2);
 * {@code -Doutage.lossy=true} makes a target SIGKILL lose its last commits (flush setting 0).
 */
@SuppressWarnings("try") // Load.close() joins the load thread, so it may throw InterruptedException
class OutageIT {
    private static final String DB = "outage";
    private static final int TABLES = 4;

    private enum Fault {
        TARGET_RESET(Side.TARGET), TARGET_PARTITION(Side.TARGET), TARGET_KILL(Side.TARGET),
        SOURCE_RESET(Side.SOURCE), SOURCE_PARTITION(Side.SOURCE), SOURCE_KILL(Side.SOURCE);

        final Side side;

        Fault(Side side) {
            this.side = side;
        }
    }

    @Test
    void resetsPartitionsAndKillsOfEitherSideAreRiddenOutInProcessAndEveryTableMatches() throws Exception {
        int rounds = Integer.getInteger("outage.rounds", 1);
        List<String> report = new ArrayList<>();
        // The target's own setting is the durable one: the applier relaxes it, and must again after a restart.
        // -Doutage.lossy=true: the target runs at innodb_flush_log_at_trx_commit=0 and the applier leaves it
        // so (durability.mode: unchanged), so a SIGKILL loses the target's last commits, position included.
        boolean lossy = Boolean.getBoolean("outage.lossy");
        try (ServerPair pair = ServerPair.start(List.of(),
            List.of("--innodb-flush-log-at-trx-commit=" + (lossy ? 0 : 1)));
             TcpProxy toSource = TcpProxy.to(pair.source.port());
             TcpProxy toTarget = TcpProxy.to(pair.target.port())) {
            for (MariaDb m : List.of(pair.source, pair.target)) {
                m.execute("CREATE DATABASE " + DB);
                for (int t = 0; t < TABLES; t++) {
                    m.execute("CREATE TABLE " + DB + ".t" + t + " (id INT PRIMARY KEY, k INT NOT NULL,"
                        + " pad VARCHAR(64) NOT NULL, KEY (k))");
                }
            }
            String start = TestApplier.currentPosition(pair.source);
            // Reconnect forever (the default), and a short connect timeout: a connect into a partition
            // takes that long, which bounds how soon a reconnect under way can see the heal.
            String yaml = TestApplier.yaml(pair, DB, start, "optimistic", 4, null)
                .replace("port: " + pair.source.port(), "port: " + toSource.port())
                .replace("port: " + pair.target.port(), "port: " + toTarget.port())
                .replace("  reconnect_attempts: 0\n", "  connect_timeout: 3s\n")
                .replace("  password: \"\"\n", "  password: \"\"\n  connect_timeout: 3s\n");
            if (lossy) {
                yaml += "durability:\n  mode: unchanged\n";
            }
            ApplierConfig config = new ConfigLoader().parse(yaml, "outage", DB);
            BackgroundApplier run = new BackgroundApplier(config, PipelineMetrics.NONE, "outage-applier");
            ApplierStatus status = run.status;
            AtomicReference<Throwable> failure = run.failure;
            try (Load load = new Load(pair.source)) {
                BackgroundApplier.await("applying", 60, () -> status.appliedTransactions() > 200, failure);
                for (int round = 0; round < rounds; round++) {
                    for (Fault f : faults()) {
                        report.add(inject(f, pair, toSource, toTarget, status, failure));
                        System.out.println(report.get(report.size() - 1));
                        assertThat(run.running()).as("the applier process never ends: " + failure.get()).isTrue();
                    }
                }
            }
            BackgroundApplier.await("caught up after the load", 120, () -> TestApplier.currentPosition(pair.source).equals(
                applied(pair.target)), failure);
            run.close();
            assertThat(failure.get()).as("the applier ended with a failure").isNull();
            assertThat(run.running()).isFalse();
            TableComparison.assertSame(pair.source, pair.target, DB);
        } finally {
            System.out.println("OutageIT: fault, time to notice, time to resume after the heal");
            report.forEach(System.out::println);
        }
    }

    /** {@code -Doutage.faults=TARGET_PARTITION,SOURCE_KILL} runs only those (default: all six). */
    private static List<Fault> faults() {
        String only = System.getProperty("outage.faults", "");
        if (only.isBlank()) {
            return List.of(Fault.values());
        }
        List<Fault> chosen = new ArrayList<>();
        for (String name : only.split(",")) {
            chosen.add(Fault.valueOf(name.trim()));
        }
        return chosen;
    }

    private static String inject(Fault f, ServerPair pair, TcpProxy toSource, TcpProxy toTarget, ApplierStatus status,
                                 AtomicReference<Throwable> failure) throws Exception {
        TcpProxy proxy = f.side == Side.SOURCE ? toSource : toTarget;
        MariaDb server = f.side == Side.SOURCE ? pair.source : pair.target;
        BooleanSupplier noticed = () -> {
            ApplierStatus.Reconnect r = status.reconnect();
            return r != null && r.side() == f.side;
        };
        long injected = System.nanoTime();
        switch (f) {
            case TARGET_RESET, SOURCE_RESET -> {
                proxy.cut();
                proxy.restore();
            }
            case TARGET_PARTITION, SOURCE_PARTITION -> proxy.drop();
            default -> server.kill();
        }
        BackgroundApplier.await(f + " noticed", 60, noticed, failure);
        long noticeMillis = (System.nanoTime() - injected) / 1_000_000;
        String stateAtNotice = status.state().label() + ", lag " + lag(status);
        switch (f) {
            case TARGET_PARTITION, SOURCE_PARTITION -> {
                // A reconnect attempt or two into the partition; -Doutage.partitionSeconds=30 for long ones.
                Thread.sleep(Long.getLong("outage.partitionSeconds", 2) * 1000);
                proxy.heal();
            }
            case TARGET_KILL, SOURCE_KILL -> server.restart();
            default -> {
            }
        }
        String stateAtHeal = status.state().label() + ", lag " + lag(status);
        long healed = System.nanoTime();
        long appliedAtHeal = status.appliedTransactions();
        BackgroundApplier.await(f + " resumed", 90, () -> status.reconnect() == null && status.appliedTransactions() > appliedAtHeal,
            failure);
        long resumeMillis = (System.nanoTime() - healed) / 1_000_000;
        if (f == Fault.TARGET_KILL && !Boolean.getBoolean("outage.lossy")) {
            BackgroundApplier.await("the restarted target's flush settings relaxed again", 10, () -> pair.target.queryLong(
                "SELECT @@GLOBAL.innodb_flush_log_at_trx_commit") == 2, failure);
        }
        return String.format("%-17s noticed after %6d ms (%s), resumed %6d ms after the heal (at the heal: %s;"
            + " last error: %s)", f, noticeMillis, stateAtNotice, resumeMillis, stateAtHeal, status.lastError());
    }

    private static String lag(ApplierStatus status) {
        double lag = status.lagSeconds();
        return Double.isNaN(lag) ? "unknown" : String.format(java.util.Locale.ROOT, "%.1f s", lag);
    }

    private static String applied(MariaDb target) {
        return target.queryString("SELECT CONCAT(binlog_file, ':', binlog_offset) FROM binlog_applier.applier_position"
            + " WHERE stream = '" + DB + "'");
    }

    /**
     * Small transactions on the source, about 150 a second, of inserts, updates and deletes over a few
     * tables; rides out the source's own outages by reconnecting.
     */
    private static final class Load implements AutoCloseable {
        private final MariaDb source;
        private final Thread thread;
        private final AtomicLong committed = new AtomicLong();
        private volatile boolean stop;

        Load(MariaDb source) {
            this.source = source;
            this.thread = new Thread(this::run, "outage-load");
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            Random random = new Random(42);
            while (!stop) {
                try (Connection c = source.connect()) {
                    c.setAutoCommit(false);
                    while (!stop) {
                        int table = random.nextInt(TABLES);
                        int statements = 1 + random.nextInt(4);
                        for (int i = 0; i < statements; i++) {
                            int id = random.nextInt(5_000);
                            int op = random.nextInt(10);
                            String sql = op < 6 ? "INSERT INTO " + DB + ".t" + table + " (id, k, pad) VALUES (?, ?, ?)"
                                + " ON DUPLICATE KEY UPDATE k = k + 1, pad = VALUES(pad)"
                                : op < 9 ? "UPDATE " + DB + ".t" + table + " SET k = ?, pad = ? WHERE id = ?"
                                : "DELETE FROM " + DB + ".t" + table + " WHERE id = ?";
                            try (PreparedStatement ps = c.prepareStatement(sql)) {
                                if (op < 6) {
                                    ps.setInt(1, id);
                                    ps.setInt(2, random.nextInt(1000));
                                    ps.setString(3, "pad " + random.nextLong());
                                } else if (op < 9) {
                                    ps.setInt(1, random.nextInt(1000));
                                    ps.setString(2, "upd " + random.nextLong());
                                    ps.setInt(3, id);
                                } else {
                                    ps.setInt(1, id);
                                }
                                ps.executeUpdate();
                            }
                        }
                        c.commit();
                        committed.incrementAndGet();
                        Thread.sleep(5);
                    }
                } catch (SQLException e) {
                    sleepQuietly(200); // the source is down: try again
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private static void sleepQuietly(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.join(10_000);
        }
    }
}
