package io.binlogapplier.server.verify;

import io.binlogapplier.ExitCode;
import io.binlogapplier.verify.TableResult;
import io.binlogapplier.verify.TableResult.Result;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VerifyReportTest {
    private static TableResult table(String name, Result r, String reason, String... differences) {
        return new TableResult("shop." + name, "copy." + name, 4000, 2, r, reason, List.of(differences));
    }

    private static VerifyReport report(TableResult... tables) {
        return new VerifyReport(List.of(tables), "mysql-bin.000002:900", "mysql-bin.000002:800", 1500);
    }

    @Test
    void anyDifferenceWinsOverAnUnverifiedChunkAndAllMatchingIsZero() {
        TableResult match = table("a", Result.MATCH, "");
        TableResult differs = table("b", Result.DIFFERS, "1 of 2 chunks differ", "id in (-inf, 10]: 1 row differs: id=3 changed");
        TableResult unverified = table("c", Result.UNVERIFIED, "1 of 2 chunks unverified; first: ...");

        assertThat(report(match).exitCode()).isEqualTo(ExitCode.OK);
        assertThat(report(match, unverified).exitCode().code()).isEqualTo(39);
        assertThat(report(match, differs, unverified).exitCode().code()).isEqualTo(38);
        assertThat(report().exitCode()).as("no applied table").isEqualTo(ExitCode.OK);
    }

    @Test
    void theTextHasARowPerTableItsDifferencesIndentedAndASummary() {
        String text = report(table("a", Result.MATCH, ""),
            table("b", Result.DIFFERS, "1 of 2 chunks differ", "id in (-inf, 10]: 1 row differs: id=3 changed")).text();

        assertThat(text.lines().toList()).containsExactly(
            "SOURCE TABLE  TARGET TABLE  ROWS  CHUNKS  RESULT      DETAIL".replace("ROWS", "      ROWS"),
            "shop.a        copy.a              4000       2  MATCH",
            "shop.b        copy.b              4000       2  DIFFERS     1 of 2 chunks differ",
            "    id in (-inf, 10]: 1 row differs: id=3 changed",
            "verify: 2 tables, 1 match, 1 differ, 0 unverified in 1.5 s (source at mysql-bin.000002:900, applier at"
                + " mysql-bin.000002:800)");
    }

    @Test
    void jsonIsOneObjectWithTheCountsAndTheExitCode() {
        String json = report(table("b", Result.DIFFERS, "1 of 2 \"chunks\" differ", "x")).json();

        assertThat(json).isEqualTo("{\"tables\":[{\"source\":\"shop.b\",\"target\":\"copy.b\",\"rows\":4000,\"chunks\":2,"
            + "\"result\":\"DIFFERS\",\"reason\":\"1 of 2 \\\"chunks\\\" differ\",\"differences\":[\"x\"]}],\"match\":0,"
            + "\"differs\":1,\"unverified\":0,\"source_at\":\"mysql-bin.000002:900\",\"applier_at\":\"mysql-bin.000002:800\","
            + "\"seconds\":1.5,\"exit_code\":38}");
    }
}
