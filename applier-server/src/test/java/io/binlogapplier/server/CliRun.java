package io.binlogapplier.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The packaged {@code binlog-applier.jar} run in its own JVM, as an operator would run it. */
final class CliRun implements AutoCloseable {
    private final Process process;
    private final Path output;

    private CliRun(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    static Path jar() {
        String p = System.getProperty("applier.jar", "target/binlog-applier.jar");
        Path jar = Path.of(p);
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: run 'mvn package' (failsafe runs after it)");
        }
        return jar;
    }

    static CliRun start(String... args) {
        return startWithHeap("512m", args);
    }

    /** As {@link #start(String...)}, with the JVM's heap limited to {@code xmx} (e.g. "128m"). */
    static CliRun startWithHeap(String xmx, String... args) {
        try {
            Path out = Files.createTempFile("binlog-applier-cli-", ".log");
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + xmx, "-jar", jar().toString()));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            return new CliRun(p, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs to completion (at most {@code seconds}) and returns the exit code. */
    static Result run(int seconds, String... args) {
        try (CliRun r = start(args)) {
            return r.await(seconds);
        }
    }

    record Result(int exitCode, String output) {
        /** The last line the applier printed. */
        String lastLine() {
            String[] lines = output.strip().split("\n");
            return lines[lines.length - 1];
        }
    }

    Result await(int seconds) {
        try {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("binlog-applier did not finish in " + seconds + " s:\n" + output());
            }
            return new Result(process.exitValue(), output());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits up to {@code seconds} for {@code condition}, polling; fails the test when the process
     * exits first or time runs out, with {@code context} (e.g. server state) and the output.
     */
    void awaitThat(String what, int seconds, java.util.function.BooleanSupplier condition,
                   java.util.function.Supplier<String> context) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            if (!alive()) {
                throw new AssertionError("the applier exited while waiting for: " + what + "\n" + output());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not " + what + " within " + seconds + " s (" + context.get() + "):\n" + output());
    }

    /** SIGKILL: no shutdown hook, no cleanup. */
    int kill() {
        process.destroyForcibly();
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM: a graceful stop. */
    void terminate() {
        process.destroy();
    }

    boolean alive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    String output() {
        try {
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        try {
            Files.deleteIfExists(output);
        } catch (IOException ignored) {
            // temp file
        }
    }
}
