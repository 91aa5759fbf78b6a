package io.binlogapplier.server.takeover;

import io.binlogapplier.binlog.SourceInspector;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

/** {@code set-position}: the applier's saved position, set by hand while it is stopped. */
public final class SetPosition {
    private SetPosition() {
    }

    /** @return what it did, for the operator */
    public static String run(ApplierConfig config, String position) {
        try (StoppedApplier t = StoppedApplier.take(config, "set-position");
             SourceInspector source = SourceInspector.connect(config.source())) {
            SourcePosition to = Positions.resolve(position, source);
            Connection c = t.connection();
            Optional<StateStore.Saved> before = t.state().load(c);
            t.state().replace(c, to);
            t.runs().clearError(c, null);
            return "applier '" + config.name() + "': position " + before.map(s -> "was " + s.position())
                .orElse("was none") + "; now " + to + (to.resumeBy() == SourcePosition.ResumeBy.FILE
                ? " (resume by file)" : "") + "; last error cleared. The next run starts there.";
        } catch (SQLException e) {
            throw StoppedApplier.targetFailure(e);
        }
    }
}
