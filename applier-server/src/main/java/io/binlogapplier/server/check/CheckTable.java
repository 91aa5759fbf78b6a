package io.binlogapplier.server.check;

import java.util.List;

/** Renders check results as a plain-text table with a closing summary line. Pure. */
public final class CheckTable {
    private CheckTable() {
    }

    public static String render(List<CheckResult> results) {
        int width = "CHECK".length();
        for (CheckResult r : results) {
            width = Math.max(width, r.name().length());
        }
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%-" + width + "s  %-6s %s%n", "CHECK", "RESULT", "DETAIL"));
        for (CheckResult r : results) {
            sb.append(String.format("%-" + width + "s  %-6s %s%n", r.name(), r.verdict(), r.detail()));
        }
        return sb.toString();
    }

    public static long count(List<CheckResult> results, CheckResult.Verdict v) {
        return results.stream().filter(r -> r.verdict() == v).count();
    }

    /** "12 checks: 10 PASS, 1 WARN, 1 FAIL". */
    public static String summary(List<CheckResult> results) {
        return results.size() + " checks: " + count(results, CheckResult.Verdict.PASS) + " PASS, "
            + count(results, CheckResult.Verdict.WARN) + " WARN, " + count(results, CheckResult.Verdict.FAIL) + " FAIL";
    }
}
