package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.server.takeover.Skip;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "skip", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Move the stopped applier's saved position past the next source transaction(s), without applying"
        + " them; each is recorded in <state_schema>.skipped with the error that stopped the applier there.",
        "Exit 0 when skipped; 31 when the applier runs; 34 when --gtid is not the next transaction; 35 when the"
            + " source has too few transactions after the position; 36 when there is no saved position."})
final class SkipCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Option(names = "--count", paramLabel = "N", defaultValue = "1",
        description = "how many source transactions to skip (default ${DEFAULT-VALUE}); filtered-out ones count too")
    int count;

    @Option(names = "--gtid", paramLabel = "GTID",
        description = "skip exactly this transaction (e.g. 0-1-105 or uuid:105), and refuse when it is not the next one")
    String gtid;

    @Override
    public Integer call() throws InterruptedException {
        System.out.println(Skip.run(ConfigFiles.load(config), count, gtid));
        return ExitCode.OK.code();
    }
}
