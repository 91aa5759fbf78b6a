package io.binlogapplier.server;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.server.status.StatusReader;
import io.binlogapplier.server.status.StatusReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;

@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Show the target's saved position against the source's binlog end: pending replay, transactions"
        + " applied, last source commit, bytes behind and lag. Reads only; works whether or not the applier runs.",
        "Exit 0 (also when the applier never started); a server that cannot be read gives its exit code as for run.",
        "Results go to stdout, log lines and errors to stderr; with --json stdout is always one JSON object,"
            + " with \"error\" and \"exit_code\" when a server could not be read."})
final class StatusCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Option(names = "--json", description = "print one JSON object instead of the table")
    boolean json;

    @Override
    public Integer call() {
        ApplierConfig cfg = ConfigFiles.load(config);
        StatusReader.Reading r;
        try {
            r = StatusReader.read(cfg, Clock.systemUTC());
        } catch (ApplierException e) {
            if (json) {
                // The target could not be read: still one JSON object on stdout, the error line on stderr.
                System.out.println("{\"name\":" + StatusReport.quote(cfg.name()) + ",\"error\":"
                    + StatusReport.quote(e.getMessage()) + ",\"exit_code\":" + e.exitCode().code() + "}");
                System.out.flush();
            }
            throw e;
        }
        if (json) {
            String out = r.report().json();
            if (r.sourceFailure() != null) {
                out = out.substring(0, out.length() - 1) + ",\"source_error\":"
                    + StatusReport.quote(r.sourceFailure().getMessage()) + ",\"exit_code\":"
                    + r.sourceFailure().exitCode().code() + "}";
            }
            System.out.println(out);
            System.out.flush();
            if (r.sourceFailure() != null) {
                throw r.sourceFailure(); // its line on stderr, its exit code
            }
            return ExitCode.OK.code();
        }
        System.out.print(r.report().text());
        System.out.flush();
        if (r.sourceFailure() != null) {
            throw r.sourceFailure();
        }
        return ExitCode.OK.code();
    }
}
