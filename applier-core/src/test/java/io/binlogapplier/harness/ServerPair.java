package io.binlogapplier.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * A source (binlog on, row format) and a target, both throwaway. The source has a replication user
 * {@code repl}/{@code repl}.
 */
public final class ServerPair implements AutoCloseable {
    public final MariaDb source;
    public final MariaDb target;

    private ServerPair(MariaDb source, MariaDb target) {
        this.source = source;
        this.target = target;
    }

    public static ServerPair start(List<String> sourceOptions, List<String> targetOptions) {
        List<String> src = new ArrayList<>(List.of("--log-bin=mysql-bin", "--binlog-format=ROW",
            "--binlog-row-image=FULL", "--log-slave-updates=0", "--gtid-domain-id=0", "--expire-logs-days=0",
            "--max-allowed-packet=64M"));
        src.addAll(sourceOptions);
        MariaDb source = MariaDb.start("source", 1, src);
        MariaDb target;
        try {
            target = MariaDb.start("target", 2, targetOptions);
        } catch (RuntimeException e) {
            source.close();
            throw e;
        }
        source.execute("SET SESSION sql_log_bin=0", "CREATE USER 'repl'@'%' IDENTIFIED BY 'repl'",
            "GRANT REPLICATION SLAVE, REPLICATION CLIENT, BINLOG MONITOR, SELECT ON *.* TO 'repl'@'%'");
        return new ServerPair(source, target);
    }

    /** Loads the time zone tables into the source (not binlogged), for sessions in named zones. */
    public void loadTimeZones() {
        try {
            Process p = new ProcessBuilder(MariaDb.binary("mariadb-tzinfo-to-sql", "BINLOG_APPLIER_TZINFO"),
                "/usr/share/zoneinfo").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String sql = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.waitFor();
            source.runScript("SET SESSION sql_log_bin = 0;\nUSE mysql;\n" + sql);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static ServerPair start() {
        return start(List.of(), List.of());
    }

    @Override
    public void close() {
        try {
            source.close();
        } finally {
            target.close();
        }
    }
}
