package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.server.check.CheckResult;
import io.binlogapplier.server.check.CheckTable;
import io.binlogapplier.server.check.Preflight;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Check the configuration and both servers before a run: one row per check (PASS, WARN or FAIL)"
        + " with what to fix. Changes nothing on either server.",
        "Exit 0 when nothing FAILs, 4 when something does, 3 for an invalid configuration file."})
final class CheckCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Override
    public Integer call() {
        ApplierConfig cfg = ConfigFiles.load(config);
        List<CheckResult> results = Preflight.run(cfg);
        System.out.print(CheckTable.render(results));
        boolean failed = CheckTable.count(results, CheckResult.Verdict.FAIL) > 0;
        System.out.println(CheckTable.summary(results) + (failed ? " [exit " + ExitCode.CHECK_FAILED.code() + "]" : ""));
        return failed ? ExitCode.CHECK_FAILED.code() : ExitCode.OK.code();
    }
}
