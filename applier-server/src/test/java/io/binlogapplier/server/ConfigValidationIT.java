package io.binlogapplier.server;

import io.binlogapplier.server.logging.Logging;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of bad configuration ends {@code run}, {@code check} and {@code status} alike: exit code
 * 3, one line naming the key and what is wrong, no password in the output, and no connection to
 * either server. Two listening sockets stand in for the source and the target and count the
 * connections they accept; a valid configuration pointing at them proves they would notice one.
 */
class ConfigValidationIT {
    private static final String SOURCE_PASSWORD = "Sup3r-Secret-Src";
    private static final String TARGET_PASSWORD = "An0ther-Secret-Tgt";
    private static final List<String> COMMANDS = List.of("run", "check", "status");

    private static Listener source;
    private static Listener target;
    private static Path dir;

    @BeforeAll
    static void listen(@TempDir Path temp) throws IOException {
        source = new Listener();
        target = new Listener();
        dir = temp;
        Logging.configure();
    }

    @AfterAll
    static void close() throws IOException {
        source.close();
        target.close();
    }

    @BeforeEach
    void resetCounts() {
        source.accepted.set(0);
        target.accepted.set(0);
    }

    private static String good() {
        return "source:\n"
            + "  host: 127.0.0.1\n"
            + "  port: " + source.port() + "\n"
            + "  user: repl\n"
            + "  password: " + SOURCE_PASSWORD + "\n"
            + "  server_id: 4242\n"
            + "  start: current\n"
            + "  connect_timeout: 2s\n"
            + "  reconnect_attempts: 0\n"
            + "target:\n"
            + "  host: 127.0.0.1\n"
            + "  port: " + target.port() + "\n"
            + "  user: root\n"
            + "  password: " + TARGET_PASSWORD + "\n"
            + "  connect_timeout: 2s\n"
            + "apply:\n"
            + "  mode: conservative\n"
            + "  workers: 1\n";
    }

    static Stream<Arguments> badConfigs() throws IOException {
        Path aDirectory = Files.createTempDirectory("binlog-applier-not-a-file-");
        aDirectory.toFile().deleteOnExit();
        List<Arguments> cases = new ArrayList<>();
        List<Object[]> bad = List.of(
            new Object[] {"missing required key", (UnaryOperator<String>) y -> y.replaceFirst("  host: 127.0.0.1\n", ""),
                "source.host: is required"},
            new Object[] {"section of the wrong type", (UnaryOperator<String>) y -> y.replaceFirst(
                "apply:\n  mode: conservative\n  workers: 1\n", "apply: fast\n"), "apply: must be a mapping of keys"},
            new Object[] {"value of the wrong type", (UnaryOperator<String>) y -> y.replace("workers: 1", "workers: [1, 2]"),
                "apply.workers: must be auto or a whole number from 1 to 256, not a list"},
            new Object[] {"unknown key", (UnaryOperator<String>) y -> y + "colour: blue\n",
                "colour: unknown key"},
            new Object[] {"unknown nested key", (UnaryOperator<String>) y -> y.replace("  connect_timeout: 2s\napply:",
                "  connect_timeout: 2s\n  colour:\n    hue: blue\napply:"), "target.colour: unknown key"},
            new Object[] {"port 0", (UnaryOperator<String>) y -> y.replace("port: " + source.port(), "port: 0"),
                "source.port: must be between 1 and 65535, not 0"},
            new Object[] {"port 70000", (UnaryOperator<String>) y -> y.replace("port: " + target.port(), "port: 70000"),
                "target.port: must be between 1 and 65535, not 70000"},
            new Object[] {"port abc", (UnaryOperator<String>) y -> y.replace("port: " + source.port(), "port: abc"),
                "source.port: must be a whole number, not 'abc'"},
            new Object[] {"missing password file", (UnaryOperator<String>) y -> y.replace("password: " + SOURCE_PASSWORD,
                "password_file: /nonexistent/binlog-applier/pw"), "source.password_file: cannot read '/nonexistent/"},
            new Object[] {"password file that is a directory", (UnaryOperator<String>) y -> y.replace("password: "
                + TARGET_PASSWORD, "password_file: " + aDirectory), "target.password_file: cannot read '" + aDirectory},
            new Object[] {"missing password variable", (UnaryOperator<String>) y -> y.replace("password: "
                + TARGET_PASSWORD, "password_env: BINLOG_APPLIER_TEST_NEVER_SET"),
                "target.password_env: environment variable 'BINLOG_APPLIER_TEST_NEVER_SET' is not set"},
            new Object[] {"two password sources", (UnaryOperator<String>) y -> y.replace("password: " + SOURCE_PASSWORD,
                "password: " + SOURCE_PASSWORD + "\n  password_env: HOME"),
                "source.password: give only one of password, password_file and password_env"},
            new Object[] {"bad start position", (UnaryOperator<String>) y -> y.replace("start: current", "start: yesterday"),
                "source.start: must be 'current', a file:offset"},
            new Object[] {"workers 0", (UnaryOperator<String>) y -> y.replace("workers: 1", "workers: 0"),
                "apply.workers: must be auto or a whole number from 1 to 256, not '0'"},
            new Object[] {"workers 257", (UnaryOperator<String>) y -> y.replace("workers: 1", "workers: 257"),
                "apply.workers: must be auto or a whole number from 1 to 256, not '257'"},
            new Object[] {"bad size", (UnaryOperator<String>) y -> y + "  unit_max_bytes: 12 parsecs\n",
                "apply.unit_max_bytes: must be a size such as 64MB"},
            new Object[] {"bad duration", (UnaryOperator<String>) y -> y + "  unit_max_delay: soon\n",
                "apply.unit_max_delay: must be a duration such as 500ms"},
            new Object[] {"negative duration", (UnaryOperator<String>) y -> y.replaceFirst("connect_timeout: 2s",
                "connect_timeout: -1s"), "source.connect_timeout: must be a duration"},
            new Object[] {"not YAML", (UnaryOperator<String>) y -> y.replace("password: " + SOURCE_PASSWORD,
                "password: \"" + SOURCE_PASSWORD), "not valid YAML"},
            new Object[] {"duplicate key", (UnaryOperator<String>) y -> y.replace("password: " + SOURCE_PASSWORD,
                "password: " + SOURCE_PASSWORD + "\n  password: " + SOURCE_PASSWORD + "2"), "duplicate key password"});
        for (String command : COMMANDS) {
            for (Object[] b : bad) {
                cases.add(Arguments.of(command, b[0], b[1], b[2]));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badConfigs")
    void aBadConfigurationStopsBeforeConnectingWithOneLineNamingTheKey(String command, String what,
                                                                       UnaryOperator<String> breakIt, String message)
        throws Exception {
        Path cfg = write(breakIt.apply(good()));

        InProcessCli.Output out = main(command, "--config", cfg.toString());

        assertThat(out.code()).as(out.text()).isEqualTo(3);
        assertThat(out.lines()).as(out.text()).hasSize(1);
        assertThat(out.lines().get(0)).contains("invalid configuration " + cfg).contains(message).endsWith("[exit 3]");
        assertThat(out.text()).doesNotContain(SOURCE_PASSWORD).doesNotContain(TARGET_PASSWORD).doesNotContain("\tat ");
        assertNobodyConnected(out);
    }

    @Test
    void everyProblemIsListedOnTheOneLineButNeverThePassword() throws Exception {
        Path cfg = write(good().replace("workers: 1", "workers: many").replace("port: " + target.port(), "port: 0")
            + "colour: blue\n");

        InProcessCli.Output out = main("check", "--config", cfg.toString());

        assertThat(out.code()).isEqualTo(3);
        assertThat(out.lines()).hasSize(1);
        assertThat(out.lines().get(0)).contains("apply.workers: must be auto or a whole number from 1 to 256, not 'many'")
            .contains("target.port: must be between 1 and 65535, not 0").contains("colour: unknown key");
        assertThat(out.text()).doesNotContain(SOURCE_PASSWORD).doesNotContain(TARGET_PASSWORD);
        assertNobodyConnected(out);
    }

    @Test
    void aMissingConfigurationFileIsAConfigurationError() throws Exception {
        InProcessCli.Output out = main("run", "--config", dir.resolve("nope.yml").toString());

        assertThat(out.code()).isEqualTo(3);
        assertThat(out.lines()).singleElement().asString().contains("nope.yml").contains("cannot read the file");
        assertNobodyConnected(out);
    }

    @Test
    void theListenersSeeAConnectionWhenTheConfigurationIsValid() throws Exception {
        InProcessCli.Output out = main("check", "--config", write(good()).toString());

        Thread.sleep(100);
        assertThat(out.code()).as(out.text()).isEqualTo(4);
        assertThat(source.accepted.get()).as("source connections").isPositive();
        assertThat(target.accepted.get()).as("target connections").isPositive();
        assertThat(out.text()).doesNotContain(SOURCE_PASSWORD).doesNotContain(TARGET_PASSWORD);
    }

    @Test
    void thePackagedCommandSaysTheSameInItsOwnProcessWithoutThePassword() throws Exception {
        Path cfg = write(good().replace("password: " + TARGET_PASSWORD, "password: \"" + TARGET_PASSWORD)
            .replace("workers: 1", "workers: 0"));
        Path cfg2 = write(good().replace("workers: 1", "workers: 0") + "  unit_max_delay: soon\n");

        CliRun.Result yaml = CliRun.run(60, "run", "--config", cfg.toString());
        CliRun.Result two = CliRun.run(60, "status", "--config", cfg2.toString());

        assertThat(yaml.exitCode()).as(yaml.output()).isEqualTo(3);
        assertThat(yaml.lastLine()).contains("not valid YAML").contains("line ").endsWith("[exit 3]");
        assertThat(two.exitCode()).as(two.output()).isEqualTo(3);
        assertThat(two.lastLine()).contains("apply.workers: must be auto or a whole number from 1 to 256, not '0'")
            .contains("apply.unit_max_delay").endsWith("[exit 3]");
        for (CliRun.Result r : List.of(yaml, two)) {
            assertThat(r.output().strip().lines().count()).as(r.output()).isEqualTo(1);
            assertThat(r.output()).doesNotContain(SOURCE_PASSWORD).doesNotContain(TARGET_PASSWORD);
        }
        assertNobodyConnected(new InProcessCli.Output(3, yaml.output() + two.output()));
    }

    private static InProcessCli.Output main(String... args) {
        return InProcessCli.main(args);
    }

    private static void assertNobodyConnected(InProcessCli.Output out) throws InterruptedException {
        Thread.sleep(50); // a connection attempt would be in the accept queue by now
        assertThat(source.accepted.get()).as("connections to the source port\n" + out.text()).isZero();
        assertThat(target.accepted.get()).as("connections to the target port\n" + out.text()).isZero();
    }

    private static Path write(String yaml) throws IOException {
        Path f = Files.createTempFile(dir, "bad-", ".yml");
        Files.writeString(f, yaml, StandardCharsets.UTF_8);
        return f;
    }

    /** Accepts connections on a free local port, counts them and closes them at once. */
    private static final class Listener implements AutoCloseable {
        final ServerSocket socket;
        final AtomicInteger accepted = new AtomicInteger();
        private final Thread thread;

        Listener() throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            thread = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        accepted.incrementAndGet();
                        s.close();
                    } catch (IOException e) {
                        // closed
                    }
                }
            }, "config-validation-listener-" + socket.getLocalPort());
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
