package io.binlogapplier.pipeline;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "first unit committed N ms after the process started" line counts from when the JVM started.
 * Linux's process start instant ({@code ProcessHandle.Info.startInstant}) is clock ticks after a
 * boot time kept in whole seconds, so it lies up to a second before the real start; this test starts
 * a JVM and requires the start time it reports to lie between launching it and its exit.
 */
class FirstCommitClockTest {
    @Test
    void theStartTimeLiesBetweenLaunchingTheJvmAndItsExit() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        long launched = System.currentTimeMillis();
        Process p = new ProcessBuilder(java, "-Xshare:auto", "-cp", System.getProperty("java.class.path"),
            JvmStartProbe.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        long exited = System.currentTimeMillis();
        assertThat(p.exitValue()).as(out).isZero();
        long started = Long.parseLong(out.lines().reduce((a, b) -> b).orElseThrow());
        // 1 ms of slack: both clocks are the wall clock in whole milliseconds
        assertThat(started).isBetween(launched - 1, exited);
    }
}
