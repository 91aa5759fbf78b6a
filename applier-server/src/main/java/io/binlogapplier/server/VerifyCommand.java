package io.binlogapplier.server;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.TablePattern;
import io.binlogapplier.config.VerifyConfig;
import io.binlogapplier.filter.ReplicationFilter;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.StateStore;
import io.binlogapplier.server.check.TargetConnections;
import io.binlogapplier.server.verify.VerifyReport;
import io.binlogapplier.verify.AppliedTables;
import io.binlogapplier.verify.TableResult;
import io.binlogapplier.verify.TableShape;
import io.binlogapplier.verify.Verifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Compare every applied table of the source with the target (filters and renames as the"
        + " configuration says), chunk by key range, while the source keeps writing and the applier runs or is"
        + " stopped. Reads only. See docs/verify.md.",
        "Exit 0 when every table matches, 38 when rows differ, 39 when a chunk could not be confirmed."})
final class VerifyCommand implements Callable<Integer> {
    @Option(names = "--config", required = true, paramLabel = "FILE", description = "the applier's YAML configuration")
    Path config;

    @Option(names = "--json", description = "print one JSON object instead of the table")
    boolean json;

    @Option(names = "--tables", split = ",", paramLabel = "SCHEMA.TABLE",
        description = "only these source tables (patterns as in filter.include: shop.*, shop.order_?)")
    List<String> tables = new ArrayList<>();

    @Option(names = "--chunk-rows", paramLabel = "N", description = "rows per chunk (default: verify.chunk_rows, 2000)")
    Integer chunkRows;

    @Option(names = "--rows-per-second", paramLabel = "N",
        description = "source rows read per second at most, 0 for no limit (default: verify.rows_per_second, 50000)")
    Long rowsPerSecond;

    @Override
    public Integer call() throws InterruptedException {
        ApplierConfig cfg = ConfigFiles.load(config);
        VerifyConfig vc = cfg.verify();
        if (chunkRows != null) {
            if (chunkRows < 10 || chunkRows > 1_000_000) {
                throw new ApplierException(ExitCode.USAGE, "--chunk-rows must be 10 to 1000000 (as verify.chunk_rows),"
                    + " not " + chunkRows);
            }
            vc = vc.withChunkRows(chunkRows);
        }
        if (rowsPerSecond != null) {
            if (rowsPerSecond < 0) {
                throw new ApplierException(ExitCode.USAGE, "--rows-per-second must be 0 (no limit) or more");
            }
            vc = vc.withRowsPerSecond(rowsPerSecond);
        }
        List<TablePattern> only = new ArrayList<>();
        for (String t : tables) {
            try {
                only.add(TablePattern.parse(t.trim()));
            } catch (IllegalArgumentException e) {
                throw new ApplierException(ExitCode.USAGE, "--tables " + t + ": " + e.getMessage());
            }
        }
        ReplicationFilter filter = new ReplicationFilter(cfg.filter(), cfg.target().stateSchema());
        long start = System.nanoTime();
        try (SourceInspector source = SourceInspector.connect(cfg.source());
             Connection target = TargetConnections.open(cfg.target())) {
            Verifier verifier = new Verifier(source.jdbc(), source.mariadb(), target,
                new StateStore(cfg.target().stateSchema(), cfg.name()), vc);
            List<TableShape> shapes = AppliedTables.list(source.jdbc(), filter, only);
            if (shapes.isEmpty() && !only.isEmpty()) {
                throw new ApplierException(ExitCode.USAGE, "--tables " + String.join(",", tables) + " names no table"
                    + " the applier applies (" + filter + "): check the names against the source");
            }
            if (shapes.isEmpty()) {
                // Nothing compared is not "everything matches": information_schema lists only the tables the
                // source user may read.
                throw new ApplierException(ExitCode.VERIFY_INCOMPLETE, "verify found no table to compare on the"
                    + " source (" + filter + "): the source user sees only tables it may SELECT; grant SELECT on the"
                    + " applied schemas, or check the filter");
            }
            List<TableResult> results = new ArrayList<>();
            for (TableShape t : shapes) {
                results.add(verifier.verify(t));
            }
            BinlogCoordinates sourceAt = source.currentPosition();
            BinlogCoordinates applied = verifier.applied();
            VerifyReport report = new VerifyReport(results, sourceAt.toString(),
                applied == null ? "no saved position" : applied.toString(), (System.nanoTime() - start) / 1_000_000);
            System.out.print(json ? report.json() + "\n" : report.text());
            System.out.flush();
            return report.exitCode().code();
        } catch (SQLException e) {
            throw new ApplierException(ExitCode.VERIFY_INCOMPLETE, "verify stopped: " + e.getMessage()
                + ": check that both servers are reachable and the users may SELECT every applied table, then run"
                + " it again", e);
        }
    }
}
