package io.binlogapplier.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {
    private static final String GOOD = """
        source:
          host: 127.0.0.1
          port: 3307
          user: repl
          password: repl
          server_id: 4242
          start: current
        target:
          host: 127.0.0.1
          port: 3308
          user: root
          password: ""
        apply:
          mode: conservative
          workers: 1
        """;

    private static ApplierConfig parse(String yaml) {
        return new ConfigLoader(Map.of("APPLIER_PW", "from-env")::get).parse(yaml, "test.yml", "orders");
    }

    private static ConfigException problems(String yaml) {
        try {
            parse(yaml);
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("expected the configuration to be rejected");
    }

    @Test
    void ringBytesDefaultsTo32MbUpTo64MbOnLargeHeapsAndAnEighthOfSmallOnesNeverUnder16Mb() {
        long mb = 1L << 20;
        assertThat(ConfigLoader.defaultRingBytes(64 * mb)).isEqualTo(16 * mb);
        assertThat(ConfigLoader.defaultRingBytes(192 * mb)).isEqualTo(24 * mb);
        assertThat(ConfigLoader.defaultRingBytes(256 * mb)).isEqualTo(32 * mb);
        assertThat(ConfigLoader.defaultRingBytes(990 * mb)).as("-Xmx1g less a survivor space").isEqualTo(32 * mb);
        assertThat(ConfigLoader.defaultRingBytes(1536 * mb)).isEqualTo(48 * mb);
        assertThat(ConfigLoader.defaultRingBytes(8192 * mb)).isEqualTo(64 * mb);
        assertThat(parse(GOOD).apply().ringBytes())
            .isEqualTo(ConfigLoader.defaultRingBytes(Runtime.getRuntime().maxMemory()));
    }

    @Test
    void aRingByteBudgetTheHeapCannotHoldIsAProblemNamingTheKey() {
        long heapMb = Runtime.getRuntime().maxMemory() >> 20;
        ConfigException e = problems(GOOD + "  ring_bytes: " + (heapMb + 1) + "MB\n");

        assertThat(e.getMessage()).contains("apply.ring_bytes").contains("does not fit in this JVM's heap")
            .contains("-Xmx");
    }

    @Test
    void theIssuesExampleLoadsWithDefaults() {
        ApplierConfig c = parse(GOOD);

        assertThat(c.name()).as("defaults to the file name").isEqualTo("orders");
        assertThat(c.source().port()).isEqualTo(3307);
        assertThat(c.source().serverId()).isEqualTo(4242);
        assertThat(c.source().start()).isInstanceOf(StartPosition.Current.class);
        assertThat(c.source().heartbeat()).isEqualTo(Duration.ofSeconds(1));
        assertThat(c.target().stateSchema()).isEqualTo("binlog_applier");
        assertThat(c.apply().mode()).isEqualTo(ApplyMode.CONSERVATIVE);
        assertThat(c.apply().workers()).isEqualTo(1);
        assertThat(c.apply().ringEntries()).isEqualTo(4096);
        assertThat(c.apply().method()).as("binlog where the target allows it, else sql").isEqualTo(ApplyMethod.AUTO);
    }

    @Test
    void withoutApplyKeysTheModeIsOptimisticAndTheWorkersAuto() {
        ApplierConfig c = parse(GOOD.replace("apply:\n  mode: conservative\n  workers: 1\n", ""));

        assertThat(c.apply().mode()).isEqualTo(ApplyMode.OPTIMISTIC);
        assertThat(c.apply().workersAuto()).isTrue();
        assertThat(c.apply().workers()).isEqualTo(ApplyConfig.AUTO_WORKERS);
        assertThat(c.apply().method()).isEqualTo(ApplyMethod.AUTO);
    }

    @Test
    void bothSidesReconnectForeverByDefaultAndTheBinlogStreamTimesOutAfterThreeHeartbeatsOrFiveSeconds() {
        ApplierConfig c = parse(GOOD);

        assertThat(c.source().reconnectAttempts()).isEqualTo(ReconnectLimit.FOREVER);
        assertThat(c.target().reconnectAttempts()).isEqualTo(ReconnectLimit.FOREVER);
        assertThat(c.source().readTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.target().statementTimeout()).isEqualTo(Duration.ofHours(8));
        assertThat(parse(GOOD.replace("start: current", "start: current\n  heartbeat: 4s")).source().readTimeout())
            .isEqualTo(Duration.ofSeconds(12));
    }

    @Test
    void reconnectAttemptsTakeACountOrForeverAndAReadTimeoutMustOutlastTwoHeartbeats() {
        ApplierConfig c = parse(GOOD.replace("start: current", "start: current\n  reconnect_attempts: 3")
            .replace("password: \"\"", "password: \"\"\n  reconnect_attempts: forever\n  statement_timeout: 2h"));
        assertThat(c.source().reconnectAttempts()).isEqualTo(new ReconnectLimit(3));
        assertThat(c.source().reconnectAttempts().exhaustedAfter(3)).isFalse();
        assertThat(c.source().reconnectAttempts().exhaustedAfter(4)).isTrue();
        assertThat(c.target().reconnectAttempts().exhaustedAfter(Integer.MAX_VALUE)).isFalse();
        assertThat(c.target().statementTimeout()).isEqualTo(Duration.ofHours(2));

        assertThat(problems(GOOD.replace("start: current", "start: current\n  reconnect_attempts: always\n"
            + "  heartbeat: 2s\n  read_timeout: 3s")).problems()).containsExactlyInAnyOrder(
            "source.reconnect_attempts: must be forever or a whole number from 0 to 1000000, not 'always'",
            "source.read_timeout: must be at least twice source.heartbeat (2000 ms): a heartbeat late by a moment"
                + " must not look like a lost source");
    }

    @Test
    void everyApplyMethodCanBeChosenAndOthersAreNamed() {
        for (ApplyMethod m : ApplyMethod.values()) {
            String name = m.name().toLowerCase(java.util.Locale.ROOT);
            assertThat(parse(GOOD.replace("workers: 1", "workers: 1\n  method: " + name)).apply().method())
                .isEqualTo(m);
        }
        assertThat(problems(GOOD.replace("workers: 1", "workers: 1\n  method: fast")).problems())
            .containsExactly("apply.method: must be one of sql, binlog, auto, not 'fast'");
    }

    @Test
    void leanBeforeImagesAreOnUnlessTurnedOff() {
        assertThat(parse(GOOD).apply().leanBeforeImages()).isTrue();
        assertThat(parse(GOOD.replace("workers: 1", "workers: 1\n  lean_before_images: false")).apply()
            .leanBeforeImages()).isFalse();
        assertThat(parse(GOOD).withApplyMethod(ApplyMethod.BINLOG).apply().leanBeforeImages())
            .as("kept when auto resolves the method").isTrue();
        assertThat(problems(GOOD.replace("workers: 1", "workers: 1\n  lean_before_images: maybe")).problems())
            .hasSize(1).first().asString().startsWith("apply.lean_before_images:");
    }

    @Test
    void leanAfterImagesAreOffUnlessTurnedOn() {
        assertThat(parse(GOOD).apply().leanAfterImages()).isFalse();
        var on = parse(GOOD.replace("workers: 1", "workers: 1\n  lean_after_images: true")).apply();
        assertThat(on.leanAfterImages()).isTrue();
        assertThat(parse(GOOD.replace("workers: 1", "workers: 1\n  lean_before_images: false\n  lean_after_images: true"))
            .apply().leanBeforeImages()).as("the other switch").isFalse();
        assertThat(parse(GOOD.replace("workers: 1", "workers: 1\n  lean_after_images: true")).withApplyMethod(
            ApplyMethod.BINLOG).apply().leanAfterImages()).as("kept when auto resolves the method").isTrue();
        assertThat(problems(GOOD.replace("workers: 1", "workers: 1\n  lean_after_images: 2")).problems())
            .hasSize(1).first().asString().startsWith("apply.lean_after_images:");
    }

    @Test
    void workersAreAFixedNumberOrAuto() {
        ApplyConfig fixed = parse(GOOD.replace("workers: 1", "workers: 8")).apply();
        assertThat(fixed.workers()).isEqualTo(8);
        assertThat(fixed.workersAuto()).isFalse();

        ApplyConfig auto = parse(GOOD.replace("workers: 1", "workers: auto")).apply();
        assertThat(auto.workers()).as("connections opened").isEqualTo(ApplyConfig.AUTO_WORKERS);
        assertThat(auto.workersAuto()).isTrue();
        assertThat(auto.workers()).isEqualTo(16);

        assertThat(problems(GOOD.replace("workers: 1", "workers: many")).problems())
            .containsExactly("apply.workers: must be auto or a whole number from 1 to 256, not 'many'");
        assertThat(problems(GOOD.replace("workers: 1", "workers: -3")).problems())
            .containsExactly("apply.workers: must be auto or a whole number from 1 to 256, not '-3'");
    }

    @Test
    void unitMaxTransactionsIsAutoOrOneNumberForAnyWorkers() {
        ApplyConfig absent = parse(GOOD).apply();
        assertThat(absent.unitMaxTransactions()).as("more than one worker taking units").isEqualTo(200);
        assertThat(absent.unitMaxTransactionsAlone()).as("one worker taking units").isEqualTo(1000);
        assertThat(parse(GOOD).withApplyMethod(ApplyMethod.BINLOG).apply().unitMaxTransactionsAlone())
            .as("kept when auto resolves the method").isEqualTo(1000);
        ApplyConfig auto = parse(GOOD.replace("workers: 1", "workers: 1\n  unit_max_transactions: auto")).apply();
        assertThat(List.of(auto.unitMaxTransactions(), auto.unitMaxTransactionsAlone())).containsExactly(200, 1000);
        ApplyConfig fixed = parse(GOOD.replace("workers: 1", "workers: 1\n  unit_max_transactions: 50")).apply();
        assertThat(List.of(fixed.unitMaxTransactions(), fixed.unitMaxTransactionsAlone())).containsExactly(50, 50);
        assertThat(parse(GOOD.replace("workers: 1", "workers: 1\n  unit_max_transactions: 100000")).apply()
            .unitMaxTransactionsAlone()).isEqualTo(100_000);

        for (String bad : List.of("0", "100001", "lots", "-5")) {
            assertThat(problems(GOOD.replace("workers: 1", "workers: 1\n  unit_max_transactions: " + bad)).problems())
                .containsExactly("apply.unit_max_transactions: must be auto or a whole number from 1 to 100000, not '"
                    + bad + "'");
        }
    }

    @Test
    void startAcceptsFilePositionsAndBothKindsOfGtid() {
        assertThat(parse(GOOD.replace("start: current", "start: \"mysql-bin.000001:4\"")).source().start())
            .hasToString("mysql-bin.000001:4").isInstanceOf(StartPosition.File.class);
        assertThat(parse(GOOD.replace("start: current", "start: \"0-1-100,1-2-5\"")).source().start())
            .hasToString("0-1-100,1-2-5").isInstanceOf(StartPosition.Gtid.class);
        assertThat(parse(GOOD.replace("start: current",
            "start: \"3E11FA47-71CA-11E1-9E33-C80AA9429562:1-100\"")).source().start())
            .hasToString("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-100").isInstanceOf(StartPosition.Gtid.class);
    }

    @Test
    void everyProblemIsReportedAtOnceWithItsKeyPath() {
        String bad = GOOD.replace("port: 3307", "port: 70000").replace("server_id: 4242", "server_id: many")
            .replace("mode: conservative", "mode: fast").replace("workers: 1", "workers: 1\n  colour: blue")
            .replace("  user: root\n", "");

        ConfigException e = problems(bad);

        assertThat(e.problems()).containsExactlyInAnyOrder(
            "source.port: must be between 1 and 65535, not 70000",
            "source.server_id: must be a whole number, not 'many'",
            "target.user: is required",
            "apply.mode: must be one of conservative, optimistic, not 'fast'",
            "apply.colour: unknown key (see config/example.yml for the keys there are)");
        assertThat(e.asApplierException().exitCode().code()).isEqualTo(3);
    }

    @Test
    void missingSectionsAndWrongTypesAreNamed() {
        ConfigException e = problems("source: 5\napply:\n  workers: [1, 2]\n");
        assertThat(e.problems()).contains("source: must be a mapping of keys, not '5'", "target.host: is required",
            "apply.workers: must be auto or a whole number from 1 to 256, not a list");
    }

    @Test
    void aBadStartPositionIsRejected() {
        assertThat(problems(GOOD.replace("start: current", "start: yesterday")).problems())
            .anyMatch(p -> p.startsWith("source.start: must be 'current', a file:offset"));
    }

    @Test
    void passwordsComeFromAFileOrTheEnvironmentAndAreNeverPrinted(@TempDir Path dir) throws Exception {
        Path pw = dir.resolve("pw");
        Files.writeString(pw, "s3cret\n");
        ApplierConfig c = parse(GOOD.replace("password: repl", "password_file: " + pw)
            .replace("password: \"\"", "password_env: APPLIER_PW"));

        assertThat(c.source().password().value()).isEqualTo("s3cret");
        assertThat(c.target().password().value()).isEqualTo("from-env");
        assertThat(c.toString()).doesNotContain("s3cret").doesNotContain("from-env").contains("<masked>");
    }

    /** A password file's first line: a Windows line ending or further lines are not part of it. */
    @Test
    void aPasswordFileGivesItsFirstLineWithoutItsLineEnding(@TempDir Path dir) throws Exception {
        Path crlf = dir.resolve("crlf");
        Files.writeString(crlf, "s3cret\r\nsecond line\n");
        Path bare = dir.resolve("bare");
        Files.writeString(bare, "no-newline");
        ApplierConfig c = parse(GOOD.replace("password: repl", "password_file: " + crlf)
            .replace("password: \"\"", "password_file: " + bare));

        assertThat(c.source().password().value()).isEqualTo("s3cret");
        assertThat(c.target().password().value()).isEqualTo("no-newline");
    }

    /** Mode 0640 with the service's group is the documented set-up: no warning; 0644 warns. */
    @Test
    void aPasswordFileTheServicesGroupMayReadIsNoWarning(@TempDir Path dir) throws Exception {
        Path group = dir.resolve("group");
        Files.writeString(group, "pw\n");
        Files.setPosixFilePermissions(group, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r-----"));
        Path world = dir.resolve("world");
        Files.writeString(world, "pw\n");
        Files.setPosixFilePermissions(world, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        String log = Stderr.of(() -> parse(GOOD.replace("password: repl", "password_file: " + group)
            .replace("password: \"\"", "password_file: " + world))).text();
        assertThat(log).contains("target.password_file: " + world + " is readable by other users")
            .doesNotContain("source.password_file");
    }

    /** YAML reads an unquoted 1.50 as the number 1.5, and yes as true: refused, not sent as "1.5" or "true". */
    @Test
    void aPasswordYamlReadsAsANumberOrABooleanIsAProblemNamingTheFix() {
        assertThat(problems(GOOD.replace("password: repl", "password: 1.50")
            .replace("password: \"\"", "password: true")).problems()).containsExactlyInAnyOrder(
            "source.password: was read as the number 1.5, which may not be what the file says: put it in quotes",
            "target.password: was read as the boolean true, which may not be what the file says: put it in quotes");
        assertThat(parse(GOOD.replace("password: repl", "password: \"1.50\"")).source().password().value())
            .isEqualTo("1.50");
    }

    /** Numbers past 64 bits are problems naming the key, not a crash (exit 1) or a value wrapped into range. */
    @Test
    void numbersTooLargeForTheirKeyAreProblems() {
        assertThat(problems(GOOD + "  ring_bytes: 99999999999999999999\n  ring_entries: 18446744073709551632\n"
            + "  unit_max_bytes: 9000000000GB\n").problems()).hasSize(3)
            .anyMatch(p -> p.startsWith("apply.ring_bytes: must be between"))
            .anyMatch(p -> p.startsWith("apply.unit_max_bytes: must be between"));
    }

    @Test
    void anUnreadablePasswordFileOrMissingVariableIsAProblem() {
        ConfigException e = problems(GOOD.replace("password: repl", "password_file: /nonexistent/pw")
            .replace("password: \"\"", "password_env: NOT_SET_ANYWHERE"));
        assertThat(e.problems()).anyMatch(p -> p.startsWith("source.password_file: cannot read '/nonexistent/pw'"))
            .contains("target.password_env: environment variable 'NOT_SET_ANYWHERE' is not set");
    }

    @Test
    void twoPasswordSourcesAreAmbiguous() {
        assertThat(problems(GOOD.replace("password: repl", "password: repl\n  password_env: APPLIER_PW")).problems())
            .contains("source.password: give only one of password, password_file and password_env");
    }

    @Test
    void invalidYamlIsReportedAsSuch() {
        assertThat(problems("source: [unclosed").problems().get(0)).startsWith("not valid YAML");
    }

    @Test
    void aYamlErrorNamesTheLineButNeverQuotesItForItMayHoldAPassword() {
        String unclosed = problems(GOOD.replace("password: repl", "password: \"Sup3r-secret")).problems().get(0);
        String duplicate = problems(GOOD.replace("password: repl", "password: Sup3r-secret\n  password: other-Secret"))
            .problems().get(0);

        assertThat(unclosed).startsWith("not valid YAML").contains("line ").doesNotContain("Sup3r");
        assertThat(duplicate).startsWith("not valid YAML").contains("duplicate key password").contains("line ")
            .doesNotContain("Sup3r").doesNotContain("other-Secret");
    }

    @Test
    void ringEntriesMustBeAPowerOfTwo() {
        assertThat(problems(GOOD + "  ring_entries: 1000\n").problems())
            .contains("apply.ring_entries: must be a power of two (1024, 4096 …), not 1000");
    }

    @Test
    void sizesAndDurationsTakeUnits() {
        ApplierConfig c = parse(GOOD + "  unit_max_bytes: 4MB\n  unit_max_delay: 250ms\n  ring_bytes: 1GiB\n");
        assertThat(c.apply().unitMaxBytes()).isEqualTo(4L << 20);
        assertThat(c.apply().unitMaxDelay()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.apply().ringBytes()).isEqualTo(1L << 30);
    }

    @Test
    void readAheadIsAutoUnlessSetAndItsBoundsAreChecked() {
        assertThat(parse(GOOD).apply().readAhead())
            .isEqualTo(new ReadAheadConfig(ReadAheadConfig.Enabled.AUTO, 2, 1000));
        assertThat(parse(GOOD + "  read_ahead:\n    enabled: true\n    connections: 4\n    rows: 300\n").apply()
            .readAhead()).isEqualTo(new ReadAheadConfig(ReadAheadConfig.Enabled.ON, 4, 300));
        assertThat(parse(GOOD + "  read_ahead:\n    enabled: off\n").apply().readAhead().runs()).isFalse();
        assertThat(problems(GOOD + "  read_ahead:\n    enabled: sometimes\n").problems())
            .contains("apply.read_ahead.enabled: must be auto, true or false, not 'sometimes'");
        assertThat(problems(GOOD + "  read_ahead:\n    connections: 0\n    depth: 3\n").problems())
            .anyMatch(p -> p.startsWith("apply.read_ahead.connections"))
            .anyMatch(p -> p.startsWith("apply.read_ahead.depth"));
    }

    @Test
    void readAheadAutoRunsWithAFixedNumberOfWorkersAndNotBesideWorkersAuto() {
        String autoWorkers = GOOD.replace("  workers: 1\n", "  workers: auto\n");
        assertThat(parse(GOOD).apply().readAheadRuns()).as("auto, workers: 1").isTrue();
        assertThat(parse(autoWorkers).apply().workersAuto()).isTrue();
        assertThat(parse(autoWorkers).apply().readAheadRuns()).as("auto, workers: auto").isFalse();
        assertThat(parse(autoWorkers + "  read_ahead:\n    enabled: true\n").apply().readAheadRuns())
            .as("true, workers: auto").isTrue();
        assertThat(parse(GOOD + "  read_ahead:\n    enabled: false\n").apply().readAheadRuns())
            .as("false, workers: 1").isFalse();
    }
}
