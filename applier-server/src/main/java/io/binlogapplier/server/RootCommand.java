package io.binlogapplier.server;

import io.binlogapplier.ExitCode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "binlog-applier", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "Applies a MySQL/MariaDB source's binlog to a target server, in parallel and exactly once.",
    subcommands = {RunCommand.class, CheckCommand.class, StatusCommand.class, VerifyCommand.class,
        SetPositionCommand.class, SkipCommand.class, AdoptCommand.class, HandbackCommand.class,
        CommandLine.HelpCommand.class})
final class RootCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Without a command: the usage, on stderr, and the bad-command-line exit code. */
    @Override
    public Integer call() {
        spec.commandLine().usage(System.err);
        System.err.println("binlog-applier: give a command: run, check, status, verify, set-position, skip, adopt"
            + " or handback");
        return ExitCode.USAGE.code();
    }

    /** The exit-code table for the help footer, from {@link ExitCode} itself. */
    static String[] exitCodesFooter() {
        List<String> lines = new ArrayList<>(List.of("", "Exit codes:"));
        for (ExitCode c : ExitCode.values()) {
            lines.add(String.format("  %3d  %s", c.code(), c.meaning()));
        }
        lines.add("See docs/operations.md, \"Exit codes\", for which of them a restart can help.");
        return lines.toArray(String[]::new);
    }
}
