package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.server.takeover.Handback;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "handback", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Hand the target back to its native replication at the stopped applier's saved position: prints"
        + " (and with --execute runs) STOP SLAVE and CHANGE MASTER TO (MySQL: CHANGE REPLICATION SOURCE TO)."
        + " Stop the applier first; a stop point: run --until POSITION.",
        "Exit 0 when done; 31 when the applier runs; 32 when the target is no replica of the configured source; 33"
            + " when the replica's SQL thread runs; 36 without a saved position; 37 with a pending DDL."})
final class HandbackCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Option(names = "--execute", description = "run the statements on the target (without: print them only)")
    boolean execute;

    @Option(names = "--by", paramLabel = "file|gtid",
        description = "MariaDB: hand back by file position or by GTID (default: as the replica was configured, Using_Gtid)")
    String by;

    @Override
    public Integer call() {
        System.out.println(Handback.run(ConfigFiles.load(config), execute, by));
        return ExitCode.OK.code();
    }
}
