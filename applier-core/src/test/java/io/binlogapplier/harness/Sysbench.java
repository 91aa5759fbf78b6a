package io.binlogapplier.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs Debian's {@code sysbench} against a throwaway server. */
public final class Sysbench {
    private Sysbench() {
    }

    /**
     * @param test e.g. {@code oltp_write_only}
     * @param command {@code prepare} or {@code run}
     * @param args further options such as {@code --tables=4}
     */
    public static String run(MariaDb server, String database, String test, String command, String... args) {
        List<String> cmd = new ArrayList<>(List.of(binary(), test, "--db-driver=mysql", "--mysql-host=127.0.0.1",
            "--mysql-port=" + server.port(), "--mysql-user=root", "--mysql-password=", "--mysql-db=" + database));
        cmd.addAll(List.of(args));
        cmd.add(command);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException("sysbench " + test + " " + command + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String binary() {
        try {
            return MariaDb.binary("sysbench", "BINLOG_APPLIER_SYSBENCH");
        } catch (IllegalStateException e) {
            throw new IllegalStateException("sysbench not found: apt-get install sysbench (the README's test"
                + " command installs it)");
        }
    }
}
