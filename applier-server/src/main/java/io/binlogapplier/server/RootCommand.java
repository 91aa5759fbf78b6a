package io.binlogapplier.server;

import picocli.CommandLine.Command;

@Command(name = "binlog-applier", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "Applies a MySQL/MariaDB source's binlog to a target server, in parallel and exactly once.",
    subcommands = {RunCommand.class},
    footer = {"", "Exit codes: see README.md, \"Exit codes\"."})
final class RootCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }
}
