package io.binlogapplier.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.ExitCode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps {@code config/binlog-applier@.service} in step with {@link ExitCode}: systemd must not
 * restart after exactly the codes whose {@link ExitCode#restartMayHelp()} is false.
 */
class SystemdUnitTest {
    private static final String UNIT = "config/binlog-applier@.service";

    @Test
    void restartPreventExitStatusListsExactlyTheCodesARestartCannotHelp() throws IOException {
        List<Integer> expected = Arrays.stream(ExitCode.values())
            .filter(c -> !c.restartMayHelp())
            .map(ExitCode::code)
            .sorted()
            .toList();

        List<String> listed = service().get("RestartPreventExitStatus");

        assertThat(listed).as("RestartPreventExitStatus= in " + UNIT).isNotNull();
        assertThat(listed).as("RestartPreventExitStatus= (numbers only, in ascending order)")
            .containsExactlyElementsOf(expected.stream().map(String::valueOf).toList());
    }

    @Test
    void theCodesOnlyVerifyReturnsAreNotTheUnitsBusiness() throws IOException {
        // run never returns them; listing them would only hide a real non-restartable code among them
        assertThat(service().get("RestartPreventExitStatus"))
            .doesNotContain(String.valueOf(ExitCode.VERIFY_DIFFERS.code()), String.valueOf(ExitCode.VERIFY_INCOMPLETE.code()));
        assertThat(ExitCode.VERIFY_DIFFERS.code()).isEqualTo(38);
        assertThat(ExitCode.VERIFY_INCOMPLETE.code()).isEqualTo(39);
    }

    @Test
    void restartsOnFailureAndStopsWithSigtermWithinTheGracefulStopTime() throws IOException {
        Map<String, List<String>> service = service();

        assertThat(service.get("Restart")).containsExactly("on-failure");
        assertThat(service.get("SuccessExitStatus")).containsExactly("0");
        assertThat(service.get("KillSignal")).containsExactly("SIGTERM");
        // the JVM's shutdown hook waits for the graceful stop for longer than RunCommand's own timeout
        long hookSeconds = (RunCommand.STOP_TIMEOUT_MILLIS + 10_000) / 1000;
        assertThat(Long.parseLong(service.get("TimeoutStopSec").get(0))).isGreaterThan(hookSeconds);
        assertThat(String.join(" ", service.get("ExecStart")))
            .isEqualTo("/opt/binlog-applier/bin/binlog-applier run --config /etc/binlog-applier/%i.yml");
    }

    /**
     * The [Service] section's settings, each as the words of its assignments in order (systemd
     * appends list settings; an empty assignment resets the list). Handles comments and
     * backslash-continued lines.
     */
    private static Map<String, List<String>> service() throws IOException {
        List<String> lines = joinContinuations(Files.readAllLines(unitFile(), StandardCharsets.UTF_8));
        Map<String, List<String>> settings = new LinkedHashMap<>();
        String section = "";
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[") && line.endsWith("]")) {
                section = line.substring(1, line.length() - 1);
                continue;
            }
            if (!section.equals("Service")) {
                continue;
            }
            int eq = line.indexOf('=');
            assertThat(eq).as("a setting in " + UNIT + ": " + line).isPositive();
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            List<String> words = settings.computeIfAbsent(key, k -> new ArrayList<>());
            if (value.isEmpty()) {
                words.clear();
            } else {
                words.addAll(Arrays.asList(value.split("\\s+")));
            }
        }
        return settings;
    }

    private static List<String> joinContinuations(List<String> lines) {
        List<String> joined = new ArrayList<>();
        StringBuilder pending = null;
        for (String line : lines) {
            String stripped = line.stripTrailing();
            boolean continues = stripped.endsWith("\\") && !stripped.strip().startsWith("#");
            String text = continues ? stripped.substring(0, stripped.length() - 1) + " " : stripped;
            if (pending == null) {
                pending = new StringBuilder(text);
            } else {
                pending.append(text);
            }
            if (!continues) {
                joined.add(pending.toString());
                pending = null;
            }
        }
        if (pending != null) {
            joined.add(pending.toString());
        }
        return joined;
    }

    /** The unit file, found from the module directory (Surefire's working directory) upwards. */
    private static Path unitFile() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            Path candidate = d.resolve(UNIT);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError(UNIT + " not found in " + dir + " or above");
    }
}
