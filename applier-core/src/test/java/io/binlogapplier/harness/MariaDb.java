package io.binlogapplier.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throwaway {@code mariadbd} for tests: its own free port and temporary data directory (copied
 * from a template made once per JVM with {@code mariadb-install-db}), killed and deleted at close.
 * Found on PATH, in /usr/sbin, or through {@code BINLOG_APPLIER_MARIADBD}.
 */
public final class MariaDb implements AutoCloseable {
    private static final Object TEMPLATE_LOCK = new Object();
    private static Path template;
    private static final List<MariaDb> RUNNING = new ArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (RUNNING) {
                for (MariaDb m : new ArrayList<>(RUNNING)) {
                    m.close();
                }
            }
        }, "mariadb-test-cleanup"));
    }

    private final String role;
    private final int port;
    private final Path dir;
    private final List<String> command;
    private volatile Process process;

    private MariaDb(String role, int port, Path dir, List<String> command, Process process) {
        this.role = role;
        this.port = port;
        this.dir = dir;
        this.command = List.copyOf(command);
        this.process = process;
    }

    /** Starts a server; {@code options} are extra mariadbd options such as {@code --log-bin=mysql-bin}. */
    public static MariaDb start(String role, int serverId, List<String> options) {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(role, serverId, options);
            } catch (PortTaken e) {
                if (attempt == 5) {
                    throw new IllegalStateException(role + " mariadbd: every port tried was taken", e);
                }
            }
        }
    }

    /** mariadbd could not bind its port: another process took it between our check and its start. */
    private static final class PortTaken extends RuntimeException {
        PortTaken(String message) {
            super(message);
        }
    }

    private static MariaDb startOnce(String role, int serverId, List<String> options) {
        try {
            Path dir = Files.createTempDirectory("binlog-applier-" + role + "-");
            Path data = dir.resolve("data");
            copyTree(template(), data);
            int port = freePort();
            List<String> cmd = new ArrayList<>(List.of(binary("mariadbd", "BINLOG_APPLIER_MARIADBD"),
                "--no-defaults", "--datadir=" + data, "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=" + dir.resolve("mysqld.sock"), "--pid-file=" + dir.resolve("mysqld.pid"),
                "--log-error=" + dir.resolve("error.log"), "--server-id=" + serverId,
                "--innodb-buffer-pool-size=128M", "--innodb-log-file-size=96M", "--max-connections=300",
                "--innodb-flush-log-at-trx-commit=2", "--sync-binlog=0", "--skip-name-resolve",
                "--performance-schema=OFF", "--innodb-doublewrite=0",
                "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci"));
            if ("root".equals(System.getProperty("user.name"))) {
                cmd.add("--user=root");
            }
            cmd.addAll(options);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile()).start();
            MariaDb m = new MariaDb(role, port, dir, cmd, p);
            synchronized (RUNNING) {
                RUNNING.add(m);
            }
            m.awaitReady();
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String log = errorLog();
                if (log.contains("Address already in use")) {
                    close();
                    throw new PortTaken(role + " mariadbd could not bind port " + port);
                }
                throw new IllegalStateException(role + " mariadbd exited at start: " + log);
            }
            try {
                connect().close();
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        close();
        throw new IllegalStateException(role + " mariadbd did not accept connections in 90 s: " + last + "\n"
            + errorLog());
    }

    public String errorLog() {
        try {
            return Files.readString(dir.resolve("error.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no error log: " + e + ")";
        }
    }

    public int port() {
        return port;
    }

    public String role() {
        return role;
    }

    public Path dir() {
        return dir;
    }

    public Connection connect() throws SQLException {
        return connect("root", "");
    }

    public Connection connect(String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("connectTimeout", "2000");
        p.setProperty("sslMode", "DISABLED");
        p.setProperty("allowPublicKeyRetrieval", "true");
        p.setProperty("allowMultiQueries", "true");
        p.setProperty("characterEncoding", "UTF-8");
        p.setProperty("zeroDateTimeBehavior", "round");
        p.setProperty("tinyInt1isBit", "false");
        p.setProperty("yearIsDateType", "false");
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/", p);
    }

    /** Runs statements (several per string allowed) as root. */
    public void execute(String... sql) {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(role + ": " + e.getMessage(), e);
        }
    }

    /** The first column of the first row, as text (null when no row). */
    public String queryString(String sql) {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(role + ": " + e.getMessage(), e);
        }
    }

    public long queryLong(String sql) {
        String v = queryString(sql);
        return v == null ? 0 : Long.parseLong(v);
    }

    /** A numeric global status variable, e.g. {@code Com_binlog} or {@code Bytes_received}. */
    public long globalStatus(String name) {
        return Long.parseLong(queryString("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
            + " WHERE VARIABLE_NAME = '" + name.toUpperCase(java.util.Locale.ROOT) + "'"));
    }

    /** Runs a SQL script with the {@code mariadb} command-line client (DELIMITER and all). */
    public void runScript(String script) {
        try {
            Process p = new ProcessBuilder(binary("mariadb", "BINLOG_APPLIER_MARIADB_CLIENT"), "--no-defaults",
                "-h127.0.0.1", "-P" + port, "-uroot", "--default-character-set=utf8mb4")
                .redirectErrorStream(true).start();
            p.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(role + " script failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        synchronized (RUNNING) {
            RUNNING.remove(this);
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteTree(dir);
    }

    /**
     * Starts the server again, on the same port and data directory, after {@link #kill()} (crash
     * recovery runs as after a real crash); returns when it accepts connections.
     */
    public void restart() {
        if (process.isAlive()) {
            throw new IllegalStateException(role + " mariadbd is still running: kill() it first");
        }
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        awaitReady();
    }

    /** Kills the server without a clean shutdown (crash tests). */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String binary(String name, String env) {
        String override = System.getenv(env);
        if (override != null && !override.isBlank()) {
            return override;
        }
        for (String dir : (System.getenv("PATH") + ":/usr/sbin:/usr/local/sbin:/usr/bin:/usr/libexec").split(":")) {
            Path p = Path.of(dir, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new IllegalStateException(name + " not found on PATH or in /usr/sbin: install MariaDB"
            + " (apt-get install mariadb-server mariadb-client) or set " + env);
    }

    private static Path template() throws IOException {
        synchronized (TEMPLATE_LOCK) {
            if (template != null) {
                return template;
            }
            Path t = Files.createTempDirectory("binlog-applier-template-");
            Path data = t.resolve("data");
            List<String> cmd = new ArrayList<>(List.of(binary("mariadb-install-db", "BINLOG_APPLIER_INSTALL_DB"),
                "--no-defaults", "--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"));
            if ("root".equals(System.getProperty("user.name"))) {
                cmd.add("--user=root");
            }
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            try {
                if (p.waitFor() != 0) {
                    throw new IllegalStateException("mariadb-install-db failed: " + out);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(t)));
            template = data;
            return template;
        }
    }

    /**
     * A port below the kernel's ephemeral range (32768 and up on Linux), where the port of a server
     * that has not bound yet cannot be taken as the local end of some outgoing connection.
     */
    static int freePort() throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int i = 0; i < 1000; i++) {
            int port = 10_000 + random.nextInt(22_000);
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new java.net.InetSocketAddress("127.0.0.1", port));
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port found between 10000 and 32000");
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
