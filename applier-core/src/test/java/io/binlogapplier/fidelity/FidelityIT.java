package io.binlogapplier.fidelity;

import io.binlogapplier.ApplierException;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The torture suite: one SQL scenario per family of values and table shapes, run on the source
 * under each binlog_row_image and applied with each apply method; afterwards every table must match
 * (CHECKSUM TABLE and an ordered dump). Prints a table of families × row images.
 */
class FidelityIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    /** Every family, or those named in {@code -Dfidelity.families=text,transactions} (while working on one). */
    static final List<String> FAMILIES = System.getProperty("fidelity.families") != null
        ? List.of(System.getProperty("fidelity.families").split(","))
        : List.of("integers", "numbers", "time", "text", "big", "shapes", "triggers", "transactions");
    static final List<String> ROW_IMAGES = List.of("FULL", "NOBLOB", "MINIMAL");
    static final List<String> METHODS = List.of("sql", "binlog");

    @BeforeAll
    static void namedTimeZones() {
        SERVERS.servers().loadTimeZones();
    }

    @Test
    void everyFamilyArrivesUnchangedUnderEveryRowImageAndMethod() throws IOException {
        Map<String, Map<String, String>> verdicts = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        for (String family : FAMILIES) {
            String script = resource("/fidelity/" + family + ".sql");
            for (String image : ROW_IMAGES) {
                for (String method : METHODS) {
                    String db = "f_" + family + "_" + image.toLowerCase() + "_" + method;
                    String verdict = run(db, script, image, method);
                    verdicts.computeIfAbsent(family, f -> new LinkedHashMap<>()).merge(image,
                        method + ":" + (verdict == null ? "ok" : "FAIL"), (a, b) -> a + " " + b);
                    if (verdict != null) {
                        failures.add(db + ": " + verdict);
                    }
                }
            }
        }
        SERVERS.source().execute("SET GLOBAL binlog_row_image = FULL");
        System.out.println(table(verdicts));
        assertThat(failures).as(table(verdicts)).isEmpty();
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "apply.method {0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"sql", "binlog"})
    void aValueTheTargetCannotHoldStopsTheApplierNamingTableColumnAndGtid(String method) {
        String db = "narrow_" + method;
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db, "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT)",
            "INSERT INTO " + db + ".t VALUES (1, 100)");
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: " + method + "\n"), "fidelity", db);
        TestApplier.runUntilCurrent(cfg);
        SERVERS.target().execute("ALTER TABLE " + db + ".t MODIFY v TINYINT");
        SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (2, 1000)");
        String gtid = SERVERS.source().queryString("SELECT @@gtid_binlog_pos");
        String before = TestApplier.savedPosition(SERVERS.target(), db);

        ApplierException e = TestApplier.runExpectingFailure(cfg);

        assertThat(e.exitCode()).as(e.getMessage()).isEqualTo(io.binlogapplier.ExitCode.TARGET_VALUE_REJECTED);
        assertThat(e.getMessage()).contains(db).contains("`t`").contains("'v'").contains(gtid)
            .contains("give it the source's type");
        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).isEqualTo(before);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(1);
    }

    /** @return null when the target matched, else what went wrong */
    private static String run(String db, String script, String image, String method) {
        SERVERS.source().execute("SET GLOBAL binlog_row_image = " + image);
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().runScript(script.replace("@DB@", db));
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "conservative", 1,
            "  method: " + method + "\n"), "fidelity", db);
        try {
            TestApplier.runUntilCurrent(cfg);
        } catch (ApplierException e) {
            return "applier stopped: " + e.getMessage();
        }
        TableComparison.Report r = TableComparison.compare(SERVERS.source(), SERVERS.target(), db);
        return r.same() ? null : r.toString();
    }

    static String table(Map<String, Map<String, String>> verdicts) {
        StringBuilder sb = new StringBuilder("\nfamily        | ");
        for (String image : ROW_IMAGES) {
            sb.append(String.format("%-22s| ", image));
        }
        sb.append('\n');
        for (Map.Entry<String, Map<String, String>> e : verdicts.entrySet()) {
            sb.append(String.format("%-14s| ", e.getKey()));
            for (String image : ROW_IMAGES) {
                sb.append(String.format("%-22s| ", e.getValue().getOrDefault(image, "-")));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static String resource(String name) throws IOException {
        try (InputStream in = FidelityIT.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
