package io.binlogapplier.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bin/binlog-applier's JVM options, run against a stand-in java that prints the arguments it got:
 * the defaults, BINLOG_APPLIER_JAVA_OPTS replacing them, BINLOG_APPLIER_JAVA_OPTS_EXTRA added after
 * either.
 */
class LauncherTest {
    private static final String DEFAULTS = "-XX:+UseSerialGC -Xms256m -Xmx1g -Dfile.encoding=UTF-8"
        + " -XX:+CrashOnOutOfMemoryError -XX:-CreateCoredumpOnCrash";

    /** The arguments the launcher gave java, in one line. */
    private static String javaArgs(Path install, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(install.resolve("bin/binlog-applier").toString(), "status", "--json");
        pb.environment().keySet().removeIf(k -> k.startsWith("BINLOG_APPLIER_"));
        pb.environment().put("JAVA_HOME", install.resolve("jdk").toString());
        pb.environment().put("BINLOG_APPLIER_CDS_DIR", "off");
        pb.environment().putAll(env);
        Process p = pb.redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void extraOptionsComeAfterTheDefaultsOrAfterTheReplacedOnes(@TempDir Path install) throws Exception {
        Files.createDirectories(install.resolve("bin"));
        Files.createDirectories(install.resolve("lib"));
        Files.createDirectories(install.resolve("jdk/bin"));
        Files.copy(Path.of("src/main/dist/bin/binlog-applier"), install.resolve("bin/binlog-applier"));
        Path java = install.resolve("jdk/bin/java");
        Files.writeString(java, """
            #!/bin/sh
            if [ "$1" = -version ]; then echo 'openjdk version "17.0.15" 2025-04-15' >&2; exit 0; fi
            echo "$@"
            """);
        for (Path f : List.of(java, install.resolve("bin/binlog-applier"))) {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        String tail = " -cp " + install.toRealPath() + "/lib/* io.binlogapplier.server.Main status --json";

        assertThat(javaArgs(install, Map.of())).isEqualTo(DEFAULTS + tail);
        assertThat(javaArgs(install, Map.of("BINLOG_APPLIER_JAVA_OPTS_EXTRA", "-Xmx2g -Dx=1")))
            .isEqualTo(DEFAULTS + " -Xmx2g -Dx=1" + tail);
        assertThat(javaArgs(install, Map.of("BINLOG_APPLIER_JAVA_OPTS", "-Xmx512m")))
            .isEqualTo("-Xmx512m" + tail);
        assertThat(javaArgs(install, Map.of("BINLOG_APPLIER_JAVA_OPTS", "-Xmx512m", "BINLOG_APPLIER_JAVA_OPTS_EXTRA",
            "-XX:+UseSerialGC"))).isEqualTo("-Xmx512m -XX:+UseSerialGC" + tail);
    }
}
