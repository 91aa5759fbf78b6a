package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.server.status.StatusReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;

@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Show the target's saved position against the source's binlog end: pending replay, transactions"
        + " applied, last source commit, bytes behind and lag. Reads only; works whether or not the applier runs.",
        "Exit 0 (also when the applier never started); a server that cannot be read gives its exit code as for run."})
final class StatusCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Option(names = "--json", description = "print one JSON object instead of the table")
    boolean json;

    @Override
    public Integer call() {
        ApplierConfig cfg = ConfigFiles.load(config);
        StatusReader.Reading r = StatusReader.read(cfg, Clock.systemUTC());
        if (json) {
            String out = r.report().json();
            if (r.sourceFailure() != null) {
                out = out.substring(0, out.length() - 1) + ",\"source_error\":"
                    + io.binlogapplier.server.status.StatusReport.quote(r.sourceFailure().getMessage()) + "}";
            }
            System.out.println(out);
            return r.sourceFailure() == null ? ExitCode.OK.code() : r.sourceFailure().exitCode().code();
        }
        System.out.print(r.report().text());
        System.out.flush();
        if (r.sourceFailure() != null) {
            throw r.sourceFailure();
        }
        return ExitCode.OK.code();
    }
}
