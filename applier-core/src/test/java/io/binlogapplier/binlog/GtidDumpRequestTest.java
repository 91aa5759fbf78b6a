package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The dump request for a tagged MySQL 8.4 GTID set (issue 17, #6). */
class GtidDumpRequestTest {
    private static final String TAGGED = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:tx:1-3";

    @Test
    void theLibraryCannotParseATaggedSetWhichIsWhyWeEncodeIt() {
        // What crashed before: BinaryLogClient.setGtidSet parses the set with this class.
        assertThatThrownBy(() -> new com.github.shyiko.mysql.binlog.GtidSet(TAGGED))
            .isInstanceOf(RuntimeException.class);
    }

    @Test
    void encodesMysql84sComBinlogDumpGtidLayout() {
        assertThat(GtidDumpRequest.command(1234, "", 4, TAGGED))
            .isEqualTo(HexFixtures.load("mysql84_packet_com_binlog_dump_gtid_tagged"));
    }

    @Test
    void tagsAreLowerCaseAndUntaggedSetsOrMariadbPositionsAreLeftToTheLibrary() {
        assertThat(GtidDumpRequest.tagged("3E11FA47-71CA-11E1-9E33-C80AA9429562:TX:1-3")).isTrue();
        assertThat(GtidDumpRequest.command(1234, "", 4, "3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5:TX:1-3"))
            .isEqualTo(HexFixtures.load("mysql84_packet_com_binlog_dump_gtid_tagged"));
        assertThat(GtidDumpRequest.tagged("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5")).isFalse();
        assertThat(GtidDumpRequest.tagged("0-1-100")).isFalse();
    }

    @Test
    void aTagLongerThanMysqlAllowsIsRefused() {
        String tag = "a".repeat(33);
        assertThatThrownBy(() -> GtidDumpRequest.command(1, "", 4, "3e11fa47-71ca-11e1-9e33-c80aa9429562:" + tag + ":1"))
            .hasMessageContaining("at most 32 characters");
    }
}
