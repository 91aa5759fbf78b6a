package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.binlogapplier.position.SourceGtid;

import java.util.UUID;

import org.junit.jupiter.api.Test;

/** MariaDB GTID_EVENT (162) and MySQL GTID/ANONYMOUS_GTID_LOG_EVENT (33/34) from byte fixtures. */
class GtidEventTest {
    private static final UUID SID = UUID.fromString("3e11fa47-71ca-11e1-9e33-c80aa9429562");

    private static BinlogEvent.Gtid gtid(String fixture) {
        return (BinlogEvent.Gtid) HexFixtures.event(fixture);
    }

    @Test
    void mariadbGroupCommitGtidCarriesItsCommitIdAndTakesTheServerIdFromTheHeader() {
        BinlogEvent.Gtid g = gtid("mariadb_gtid_group_commit");

        assertThat(g.gtid()).isEqualTo(new SourceGtid.Mariadb(1, 7, 100));
        assertThat(g.gtid()).hasToString("1-7-100");
        assertThat(g.header().serverId()).isEqualTo(7);
        assertThat(g.header().nextPosition()).isEqualTo(2040);
        assertThat(g.flags()).isEqualTo(EventBodyParser.FL_GROUP_COMMIT_ID | EventBodyParser.FL_TRANSACTIONAL
            | EventBodyParser.FL_ALLOW_PARALLEL);
        assertThat(g.commitId()).isEqualTo(5001);
        assertThat(g.standalone()).isFalse();
        assertThat(g.ddl()).isFalse();
        assertThat(g.transactional()).isTrue();
        assertThat(g.lastCommitted()).isEqualTo(-1);
        assertThat(g.sequenceNumber()).isEqualTo(-1);
        assertThat(g.commitMicros()).isZero();
    }

    @Test
    void mariadbStandaloneDdlGtidHasNoCommitIdAndReadsUnsignedDomainAndServerIds() {
        BinlogEvent.Gtid g = gtid("mariadb_gtid_standalone_ddl");

        assertThat(g.gtid()).isEqualTo(new SourceGtid.Mariadb(3_000_000_000L, 4_000_000_000L, 101));
        assertThat(g.flags()).isEqualTo(EventBodyParser.FL_STANDALONE | EventBodyParser.FL_ALLOW_PARALLEL
            | EventBodyParser.FL_DDL);
        assertThat(g.standalone()).isTrue();
        assertThat(g.ddl()).isTrue();
        assertThat(g.transactional()).isFalse();
        assertThat(g.commitId()).isEqualTo(-1);
    }

    @Test
    void mysql80GtidWithBit55SetReportsTheOriginalCommitTimestampNotTheImmediateOne() {
        BinlogEvent.Gtid g = gtid("mysql80_gtid_two_timestamps");

        assertThat(g.gtid()).isEqualTo(new SourceGtid.Mysql(SID, "", 23));
        assertThat(g.lastCommitted()).isEqualTo(7);
        assertThat(g.sequenceNumber()).isEqualTo(9);
        // immediate is 1709211600123456; the original commit on the first source is what lag is measured from
        assertThat(g.commitMicros()).isEqualTo(1_709_211_599_000_001L);
        assertThat(g.header().serverId()).isEqualTo(1);
        assertThat(g.commitId()).isEqualTo(-1);
        assertThat(g.standalone()).isFalse();
    }

    @Test
    void mysql80GtidWithBit55ClearUsesTheImmediateTimestampAsTheCommitTime() {
        BinlogEvent.Gtid g = gtid("mysql80_gtid_one_timestamp");

        assertThat(g.gtid()).isEqualTo(new SourceGtid.Mysql(SID, "", 24));
        assertThat(g.lastCommitted()).isEqualTo(9);
        assertThat(g.sequenceNumber()).isEqualTo(10);
        assertThat(g.commitMicros()).isEqualTo(1_709_211_600_654_321L);
    }

    @Test
    void anonymousGtidHasNoGtidButKeepsTheLogicalClockAndCommitTime() {
        BinlogEvent.Gtid g = gtid("mysql80_anonymous_gtid");

        assertThat(g.header().type()).isEqualTo(EventConverter.ANONYMOUS_GTID);
        assertThat(g.gtid()).isNull();
        assertThat(g.lastCommitted()).isEqualTo(12);
        assertThat(g.sequenceNumber()).isEqualTo(13);
        assertThat(g.commitMicros()).isEqualTo(1_709_211_601_000_002L);
    }

    @Test
    void mysql57GtidHasTheLogicalClockButNoCommitTimestamp() {
        BinlogEvent.Gtid g = gtid("mysql57_gtid_logical_clock");

        assertThat(g.gtid()).isEqualTo(new SourceGtid.Mysql(SID, "", 5));
        assertThat(g.flags()).isEqualTo(1);
        assertThat(g.lastCommitted()).isEqualTo(3);
        assertThat(g.sequenceNumber()).isEqualTo(4);
        assertThat(g.commitMicros()).isZero();
    }

    @Test
    void mysql56GtidWithoutTypecodeHasNoLogicalClock() {
        BinlogEvent.Gtid g = gtid("mysql56_gtid");

        assertThat(g.gtid()).isEqualTo(new SourceGtid.Mysql(SID, "", 6));
        assertThat(g.lastCommitted()).isEqualTo(-1);
        assertThat(g.sequenceNumber()).isEqualTo(-1);
        assertThat(g.commitMicros()).isZero();
    }
}
