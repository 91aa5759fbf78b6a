package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import io.binlogapplier.server.takeover.SetPosition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(name = "set-position", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Set the applier's saved position on the target by hand (the applier must be stopped): the next"
        + " run starts at POSITION. Clears the last error. Replaces deleting the state row and editing source.start.",
        "Exit 0 when set; 31 when the applier runs; 2 for a position that is none or of the other server kind; 12"
            + " when the file is gone from the source."})
final class SetPositionCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Parameters(index = "0", paramLabel = "POSITION", description = {"FILE:POS (resume by file position, e.g."
        + " mysql-bin.000042:1337, a transaction boundary), a MariaDB GTID position (0-1-100,1-2-5) or a MySQL GTID"
        + " set (uuid:1-100): resume by GTID"})
    String position;

    @Override
    public Integer call() {
        System.out.println(SetPosition.run(ConfigFiles.load(config), position));
        return ExitCode.OK.code();
    }
}
