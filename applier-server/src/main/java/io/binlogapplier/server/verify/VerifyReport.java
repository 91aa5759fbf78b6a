package io.binlogapplier.server.verify;

import io.binlogapplier.ExitCode;
import io.binlogapplier.server.status.StatusReport;
import io.binlogapplier.verify.TableResult;

import java.util.List;
import java.util.Locale;

/** The printed outcome of {@code verify}: a table per applied table, a summary, the exit code. Pure. */
public record VerifyReport(List<TableResult> tables, String sourceAt, String appliedAt, long millis) {

    public VerifyReport {
        tables = List.copyOf(tables);
    }

    public long count(TableResult.Result r) {
        return tables.stream().filter(t -> t.result() == r).count();
    }

    /** 38 when any table differs, else 39 when any could not be verified, else 0. */
    public ExitCode exitCode() {
        if (count(TableResult.Result.DIFFERS) > 0) {
            return ExitCode.VERIFY_DIFFERS;
        }
        return count(TableResult.Result.UNVERIFIED) > 0 ? ExitCode.VERIFY_INCOMPLETE : ExitCode.OK;
    }

    public String text() {
        int w1 = "SOURCE TABLE".length();
        int w2 = "TARGET TABLE".length();
        for (TableResult t : tables) {
            w1 = Math.max(w1, t.source().length());
            w2 = Math.max(w2, t.target().length());
        }
        String format = "%-" + w1 + "s  %-" + w2 + "s  %10s  %6s  %-10s  %s%n";
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, format, "SOURCE TABLE", "TARGET TABLE", "ROWS",
            "CHUNKS", "RESULT", "DETAIL"));
        for (TableResult t : tables) {
            sb.append(String.format(Locale.ROOT, format, t.source(), t.target(), t.rows(), t.chunks(), t.result(),
                t.reason()).stripTrailing()).append('\n');
            for (String d : t.differences()) {
                sb.append("    ").append(d).append('\n');
            }
        }
        sb.append(String.format(Locale.ROOT, "verify: %d tables, %d match, %d differ, %d unverified in %.1f s"
                + " (source at %s, applier at %s)%n", tables.size(), count(TableResult.Result.MATCH),
            count(TableResult.Result.DIFFERS), count(TableResult.Result.UNVERIFIED), millis / 1000.0, sourceAt,
            appliedAt));
        return sb.toString();
    }

    public String json() {
        StringBuilder sb = new StringBuilder("{\"tables\":[");
        for (int i = 0; i < tables.size(); i++) {
            TableResult t = tables.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"source\":").append(StatusReport.quote(t.source()))
                .append(",\"target\":").append(StatusReport.quote(t.target()))
                .append(",\"rows\":").append(t.rows()).append(",\"chunks\":").append(t.chunks())
                .append(",\"result\":\"").append(t.result()).append("\",\"reason\":").append(StatusReport.quote(t.reason()))
                .append(",\"differences\":[");
            for (int j = 0; j < t.differences().size(); j++) {
                sb.append(j == 0 ? "" : ",").append(StatusReport.quote(t.differences().get(j)));
            }
            sb.append("]}");
        }
        sb.append("],\"match\":").append(count(TableResult.Result.MATCH))
            .append(",\"differs\":").append(count(TableResult.Result.DIFFERS))
            .append(",\"unverified\":").append(count(TableResult.Result.UNVERIFIED))
            .append(",\"source_at\":").append(StatusReport.quote(sourceAt))
            .append(",\"applier_at\":").append(StatusReport.quote(appliedAt))
            .append(",\"seconds\":").append(String.format(Locale.ROOT, "%.1f", millis / 1000.0))
            .append(",\"exit_code\":").append(exitCode().code()).append('}');
        return sb.toString();
    }
}
