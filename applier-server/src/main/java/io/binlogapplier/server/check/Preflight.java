package io.binlogapplier.server.check;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.errors.Messages;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code binlog-applier check}: connects to both servers and answers, one row per check, whether a
 * {@code run} with this configuration could start and keep going. Reads only (see
 * {@link TargetChecks} for the one probe that writes, and is rolled back).
 */
public final class Preflight {
    private Preflight() {
    }

    public static List<CheckResult> run(ApplierConfig config) {
        List<CheckResult> sourceRows = new ArrayList<>();
        List<CheckResult> targetRows = new ArrayList<>();
        List<CheckResult> startRows = new ArrayList<>();
        SourceInspector source = null;
        Connection target = null;
        try {
            try {
                source = SourceInspector.connect(config.source());
                sourceRows.add(CheckResult.pass("source connection", config.source().address() + " as '"
                    + config.source().user() + "': " + source.variable("version")));
                sourceRows.add(TlsCheck.row("source", config.source().host(), config.source().tls(),
                    TlsCheck.sessionStatus(source.rows("SHOW SESSION STATUS LIKE 'Ssl_%'"))));
            } catch (ApplierException e) {
                sourceRows.add(CheckResult.fail(e.exitCode() == ExitCode.SOURCE_TLS ? "source tls" : "source connection",
                    e.getMessage()));
            } catch (SQLException e) {
                sourceRows.add(CheckResult.fail("source tls", "SHOW SESSION STATUS failed: " + Messages.firstLine(e)));
            }
            List<String> sourceSchemas = null;
            if (source != null) {
                try {
                    sourceRows.addAll(new SourceChecks(config.source(), source).all());
                    sourceSchemas = source.rows("SHOW DATABASES").stream().map(r -> r[0]).toList();
                } catch (ApplierException e) {
                    sourceRows.add(CheckResult.fail("source", e.getMessage()));
                } catch (SQLException e) {
                    sourceSchemas = null; // the schema comparison is skipped
                }
            }
            try {
                target = TargetConnections.open(config.target());
            } catch (ApplierException e) {
                targetRows.add(CheckResult.fail(e.exitCode() == ExitCode.TARGET_TLS ? "target tls" : "target connection",
                    e.getMessage()));
            }
            TargetChecks targetChecks = null;
            if (target != null) {
                try {
                    targetChecks = new TargetChecks(config, target);
                    targetRows.add(CheckResult.pass("target connection", config.target().address() + " as '"
                        + config.target().user() + "': " + targetChecks.version()));
                    targetRows.add(TlsCheck.row("target", config.target().host(), config.target().tls(),
                        TlsCheck.sessionStatus(target)));
                    targetRows.add(targetChecks.stateTable());
                    targetRows.addAll(targetChecks.replicatedSchemas(sourceSchemas));
                    targetRows.add(targetChecks.relaxedFlush());
                    targetChecks.applyMethod(source == null ? null : source.mariadb()).ifPresent(targetRows::add);
                    targetChecks.autoMethod(source == null ? null : source.version()).ifPresent(targetRows::add);
                    targetChecks.execMode().ifPresent(targetRows::add);
                    targetChecks.conflictMonitor().ifPresent(targetRows::add);
                    targetRows.addAll(targetChecks.mysqlRows());
                } catch (SQLException e) {
                    targetRows.add(CheckResult.fail("target", "a query failed: " + Messages.firstLine(e)));
                }
            }
            if (source != null) {
                try {
                    String unknown = targetChecks == null ? "the target could not be read" : targetChecks.savedUnknown();
                    startRows.add(new StartPositionCheck(source).check(config.source().start(),
                        targetChecks == null ? null : targetChecks.saved(), unknown,
                        targetChecks == null ? null : targetChecks.savedSourceServerId(), config.source().address()));
                } catch (ApplierException e) {
                    startRows.add(CheckResult.fail(StartPositionCheck.NAME, e.getMessage()));
                }
            }
        } finally {
            if (source != null) {
                source.close();
            }
            if (target != null) {
                try {
                    target.close();
                } catch (SQLException ignored) {
                    // closing
                }
            }
        }
        List<CheckResult> all = new ArrayList<>(sourceRows);
        all.addAll(targetRows);
        all.addAll(startRows);
        return all;
    }
}
