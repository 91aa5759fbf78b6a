package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An XA transaction in the binlog, committed on the source: binlog-applier does not apply XA, so it stops
 * (exit 14) with nothing of it applied and the position before it, and its message says what to do. It used
 * to say "finish XA transactions on the source", which a committed one already is.
 */
class XaTransactionIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @Test
    void aCommittedXaTransactionStopsTheApplierBeforeItWithWhatToDo() {
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE xa", "CREATE TABLE xa.t (id INT PRIMARY KEY)",
            "INSERT INTO xa.t VALUES (1)");
        String before = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("XA START 'x1'", "INSERT INTO xa.t VALUES (2)", "XA END 'x1'", "XA PREPARE 'x1'",
            "XA COMMIT 'x1'", "INSERT INTO xa.t VALUES (3)");
        ApplierException e = TestApplier.runExpectingFailure(new ConfigLoader().parse(
            TestApplier.yamlWithDefaultMethod(SERVERS.servers(), "xa", start, "optimistic", 1), "test", "xa"));

        assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_UNSUPPORTED);
        assertThat(e.getMessage()).contains("does not apply XA transactions, committed or not")
            .contains("handback, then adopt").contains("set-position past it").doesNotContain("finish XA");
        // nothing of the XA transaction or after it; what came before may have been in flight with it (rolled back)
        assertThat(TestApplier.savedPosition(SERVERS.target(), "xa")).isIn(start, before);
        if (SERVERS.target().queryLong("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'xa'") > 0) {
            assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM xa.t WHERE id > 1")).isZero();
        }
    }
}
