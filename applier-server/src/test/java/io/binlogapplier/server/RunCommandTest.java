package io.binlogapplier.server;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.pipeline.Applier;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunCommandTest {
    private static final String UUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562";

    @Test
    void untilTakesCurrentAFilePositionOrEitherKindOfGtid() {
        assertThat(RunCommand.parseUntil(null)).isInstanceOf(Applier.Until.Forever.class);
        assertThat(RunCommand.parseUntil(" Current ")).isInstanceOf(Applier.Until.Current.class);
        assertThat(RunCommand.parseUntil("mysql-bin.000042:1337")).isEqualTo(
            new Applier.Until.At(new io.binlogapplier.position.BinlogCoordinates("mysql-bin.000042", 1337)));
        assertThat(RunCommand.parseUntil("0-1-100,1-2-5")).isInstanceOfSatisfying(Applier.Until.Gtid.class,
            g -> assertThat(g.goal()).hasToString("0-1-100,1-2-5").matches(x -> x.mariadb()));
        assertThat(RunCommand.parseUntil(UUID + ":100")).as("not mistaken for FILE:OFFSET")
            .isInstanceOfSatisfying(Applier.Until.Gtid.class,
                g -> assertThat(g.goal().mariadb()).isFalse());
    }

    @Test
    void anythingElseIsAUsageErrorNamingTheFormsThereAre() {
        assertThatThrownBy(() -> RunCommand.parseUntil("yesterday"))
            .isInstanceOfSatisfying(ApplierException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE))
            .hasMessageContaining("FILE:OFFSET").hasMessageContaining("0-1-100").hasMessageContaining("uuid:1-100");
        assertThatThrownBy(() -> RunCommand.parseUntil(UUID + ":9-3"))
            .isInstanceOfSatisfying(ApplierException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE))
            .hasMessageContaining("not a valid GTID");
        assertThatThrownBy(() -> RunCommand.parseUntil("0-1-5,0-2-6"))
            .isInstanceOfSatisfying(ApplierException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCode.USAGE))
            .hasMessageContaining("domain 0 twice");
    }
}
