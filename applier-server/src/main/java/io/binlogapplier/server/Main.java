package io.binlogapplier.server;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import picocli.CommandLine;

/**
 * {@code binlog-applier} entry point. Every outcome ends in a distinct exit code
 * ({@link ExitCode}); expected failures print one line naming cause and fix.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        Logging.configure();
        int code = run(args);
        System.out.flush();
        System.err.flush();
        ShutdownCoordinator.exit(code);
    }

    static int run(String[] args) {
        CommandLine cli = new CommandLine(new RootCommand())
            .setExecutionExceptionHandler((ex, cmd, parsed) -> {
                ApplierException ae = ApplierException.of(ex);
                Logging.failure(ae);
                return ae.exitCode().code();
            })
            .setParameterExceptionHandler((ex, args2) -> {
                System.err.println("binlog-applier: " + ex.getMessage() + " (see binlog-applier --help)");
                return ExitCode.USAGE.code();
            });
        cli.getCommandSpec().usageMessage().footer(RootCommand.exitCodesFooter());
        return cli.execute(args);
    }
}
