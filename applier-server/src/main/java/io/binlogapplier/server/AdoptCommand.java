package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.server.takeover.Adopt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "adopt", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Take over from the target's native replication: its SQL thread must be stopped and its source must"
        + " be the configured one; writes where it stopped as the applier's saved position. Changes nothing else.",
        "Exit 0 when adopted; 31 when the applier runs; 32 when the target is no replica of the configured source; 33"
            + " when the replica's SQL thread runs."})
final class AdoptCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Override
    public Integer call() {
        System.out.println(Adopt.run(ConfigFiles.load(config)));
        return ExitCode.OK.code();
    }
}
