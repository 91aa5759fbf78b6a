package io.binlogapplier.position;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How a position reads in log lines and command output. */
class SourcePositionTest {
    @Test
    void aFilePositionWithItsGtid() {
        assertThat(new SourcePosition(new BinlogCoordinates("mysql-bin.000001", 1288), "0-1-5",
            SourcePosition.ResumeBy.FILE)).hasToString("mysql-bin.000001:1288 gtid 0-1-5");
    }

    @Test
    void aGtidPositionSetByHandHasNoEmptyFileInFront() {
        // set-position with a GTID list: no file coordinates until the first connect (it read ":4 gtid …")
        assertThat(new SourcePosition(new BinlogCoordinates("", 4), "0-1-64446,1-1-1040",
            SourcePosition.ResumeBy.GTID)).hasToString("gtid 0-1-64446,1-1-1040 (resume by GTID)");
    }
}
