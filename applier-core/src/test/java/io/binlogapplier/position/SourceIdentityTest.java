package io.binlogapplier.position;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class SourceIdentityTest {
    private static final SourcePosition AT = new SourcePosition(new BinlogCoordinates("mysql-bin.000042", 1337),
        "0-1-56", SourcePosition.ResumeBy.FILE);

    @Test
    void theSameServerOrAnUnknownOnePasses() {
        assertThatCode(() -> SourceIdentity.requireSame(1L, "1", "db:3306", AT)).doesNotThrowAnyException();
        assertThatCode(() -> SourceIdentity.requireSame(null, "7", "db:3306", AT)).doesNotThrowAnyException();
        assertThatCode(() -> SourceIdentity.requireSame(1L, null, "db:3306", AT)).doesNotThrowAnyException();
        assertThatCode(() -> SourceIdentity.requireSame(1L, "not a number", "db:3306", AT)).doesNotThrowAnyException();
    }

    @Test
    void anotherServerStopsWith19NamingBothAndTheGtidToResumeBy() {
        ApplierException e = catchThrowableOfType(ApplierException.class,
            () -> SourceIdentity.requireSame(1L, " 7 ", "db:3306", AT));
        assertThat(e.exitCode()).isEqualTo(ExitCode.SOURCE_CHANGED);
        assertThat(e.getMessage()).isEqualTo("source db:3306 is server_id 7, but the saved position"
            + " mysql-bin.000042:1337 is in server_id 1's binlog (a file position means other transactions on another"
            + " server): point source back at server_id 1, or, if this server has the same history, resume by GTID:"
            + " binlog-applier set-position --config <file> 0-1-56");
    }

    @Test
    void withoutAGtidTheMessageAsksForOne() {
        SourcePosition noGtid = new SourcePosition(new BinlogCoordinates("mysql-bin.000042", 1337), "",
            SourcePosition.ResumeBy.FILE);
        assertThat(SourceIdentity.changed("db:3306", 7, 1, noGtid).getMessage())
            .endsWith("set-position --config <file> <GTID position>");
    }

    @Test
    void parsesServerIdsAsTheServerPrintsThem() {
        assertThat(SourceIdentity.parse("4294967295")).isEqualTo(4294967295L);
        assertThat(SourceIdentity.parse(null)).isNull();
        assertThat(SourceIdentity.parse("")).isNull();
    }
}
