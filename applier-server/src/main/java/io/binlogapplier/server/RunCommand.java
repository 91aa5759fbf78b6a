package io.binlogapplier.server;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.pipeline.Applier;
import io.binlogapplier.pipeline.ApplierStatus;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.server.metrics.MetricsServer;
import io.binlogapplier.server.progress.ProgressLogger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;

@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "Apply the source's binlog to the target, from the target's saved position (else source.start).")
final class RunCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger("binlog-applier");
    static final long STOP_TIMEOUT_MILLIS = 30_000;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Option(names = "--until", paramLabel = "POSITION",
        description = {"stop once applied up to POSITION, then exit 0: 'current' (what the source had written at"
            + " start), FILE:OFFSET, a MariaDB GTID position (0-1-100,1-2-5) or a MySQL GTID set (uuid:1-100)"})
    String until;

    private final ShutdownCoordinator shutdown;

    RunCommand(ShutdownCoordinator shutdown) {
        this.shutdown = shutdown;
    }

    @Override
    public Integer call() throws Exception {
        ApplierConfig cfg = ConfigFiles.load(config);
        Applier.Until u = parseUntil(until);
        ApplierStatus status = new ApplierStatus(Clock.systemUTC());
        try (MetricsServer endpoint = MetricsServer.start(cfg, status, Version.version())) {
            Applier applier = new Applier(cfg, endpoint.metrics(), STOP_TIMEOUT_MILLIS, status);
            shutdown.onStop(() -> {
                log.info("stop requested: committing what is complete");
                applier.requestStop();
            });
            ProgressLogger progress = ProgressLogger.start(cfg.name(), status, cfg.log().progressInterval());
            try {
                report(applier.run(u));
            } finally {
                progress.close();
            }
        }
        return ExitCode.OK.code();
    }

    private static void report(Applier.Outcome o) {
        if (o.position() == null) {
            log.info("stopped before anything was applied");
        } else if (o.nothingToDo()) {
            log.info("nothing to apply: the target is at {}", o.position());
        } else {
            log.info("applied {} transactions, {} rows in {} ms ({} rows/s, {} target commits); position {}",
                o.transactions(), o.rows(), o.millis(), o.millis() == 0 ? o.rows() : o.rows() * 1000 / o.millis(),
                o.units(), o.position());
        }
    }

    static Applier.Until parseUntil(String text) {
        if (text == null) {
            return new Applier.Until.Forever();
        }
        if (text.trim().equalsIgnoreCase("current")) {
            return new Applier.Until.Current();
        }
        // Before FILE:OFFSET: a MySQL GTID "uuid:100" has that shape too.
        if (GtidGoal.looksLikeGtids(text)) {
            try {
                return new Applier.Until.Gtid(GtidGoal.parse(text));
            } catch (IllegalArgumentException e) {
                throw new ApplierException(ExitCode.USAGE, "--until '" + text + "' is not a valid GTID position or set ("
                    + e.getMessage() + ")");
            }
        }
        BinlogCoordinates at = BinlogCoordinates.parseOrNull(text);
        if (at == null) {
            throw new ApplierException(ExitCode.USAGE, "--until '" + text + "' is not 'current', FILE:OFFSET, a MariaDB"
                + " GTID position (0-1-100) or a MySQL GTID set (uuid:1-100)");
        }
        return new Applier.Until.At(at);
    }
}
