package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** The messages operators read when the target cannot be reached; the rules are ErrorClassifierTest's. */
class TargetErrorsTest {
    @Test
    void refusedLogin() {
        ApplierException e = TargetErrors.connect(new SQLException("Access denied for user 'app'", "28000", 1045));
        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_ACCESS_DENIED);
        assertThat(e.getMessage()).isEqualTo("target refused the login (Access denied for user 'app'): check"
            + " target.user and target.password");
    }

    @Test
    void unreachable() {
        ApplierException e = TargetErrors.connect(new RuntimeException("pool",
            new SQLException("Communications link failure\n\nThe last packet", "08S01", 0)));
        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_UNREACHABLE);
        assertThat(e.getMessage()).isEqualTo("cannot reach the target (Communications link failure): check"
            + " target.host/target.port and that the server is running");
    }

    @Test
    void aReadOnlyTargetIsReachableAndSaysSo() {
        ApplierException e = TargetErrors.connect(new SQLException("The MariaDB server is running with the --read-only"
            + " option so it cannot execute this statement", "HY000", 1290));
        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_UNREACHABLE);
        assertThat(e.getMessage()).startsWith("the target is read-only (The MariaDB server is running with the"
            + " --read-only option").endsWith("): SET GLOBAL read_only = OFF there (or grant the target user READ_ONLY"
            + " ADMIN), then restart");
    }

    @Test
    void otherServerErrorsSayWhatFailed() {
        ApplierException e = TargetErrors.connect(new SQLException("Unknown database 'x'", "42000", 1049));
        assertThat(e.exitCode()).isEqualTo(ExitCode.TARGET_SCHEMA_MISMATCH);
        assertThat(e.getMessage()).isEqualTo("connecting failed on the target (error 1049: Unknown database 'x') in"
            + " startup: make the target's schema match the source's (SHOW CREATE TABLE on both) and restart");
    }

    @Test
    void noServerErrorIsKeptOrCalledABug() {
        ApplierException already = new ApplierException(ExitCode.CONFIG, "bad");
        assertThat(TargetErrors.connect(already)).isSameAs(already);
        assertThat(TargetErrors.connect(new IllegalStateException("bug")).exitCode()).isEqualTo(ExitCode.INTERNAL);
    }
}
