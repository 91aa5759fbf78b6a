package io.binlogapplier.server;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.server.logging.Logging;
import picocli.CommandLine;

/**
 * {@code binlog-applier} entry point. Every outcome ends in a distinct exit code
 * ({@link ExitCode}); expected failures print one line naming cause and fix.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // First of all: a SIGTERM from here on is a stop request that the command honours as soon as
        // it has something to stop, never a lost signal or an exit 143.
        ShutdownCoordinator shutdown = new ShutdownCoordinator();
        shutdown.installShutdownHook(RunCommand.STOP_TIMEOUT_MILLIS + 10_000);
        Logging.configure();
        int code = run(shutdown, args);
        System.out.flush();
        System.err.flush();
        shutdown.finished(code);
        System.exit(code);
    }

    /** Runs a command in this JVM without a shutdown hook or {@code System.exit} (tests). */
    static int run(String[] args) {
        return run(new ShutdownCoordinator(), args);
    }

    /** Runs a command; {@code shutdown} carries stop requests to it (SIGTERM, or a test). */
    static int run(ShutdownCoordinator shutdown, String[] args) {
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        CommandLine cli = new CommandLine(new RootCommand(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                return cls == RunCommand.class ? cls.cast(new RunCommand(shutdown)) : defaults.create(cls);
            }
        })
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
