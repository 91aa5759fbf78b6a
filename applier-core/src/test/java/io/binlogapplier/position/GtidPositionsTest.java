package io.binlogapplier.position;

import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GtidPositionsTest {
    @Test
    void mariadbPositionKeepsTheNewestGtidOfEachDomain() {
        MariadbGtidPosition p = MariadbGtidPosition.parse("1-2-5, 0-1-100");
        p = p.with(new SourceGtid.Mariadb(0, 3, 101)).with(new SourceGtid.Mariadb(7, 1, 1));

        assertThat(p).hasToString("0-3-101,1-2-5,7-1-1");
        assertThat(p.contains(new SourceGtid.Mariadb(0, 1, 99))).isTrue();
        assertThat(p.contains(new SourceGtid.Mariadb(1, 2, 6))).isFalse();
    }

    @Test
    void mariadbPositionRejectsADomainNamedTwice() {
        assertThatThrownBy(() -> MariadbGtidPosition.parse("0-1-1,0-1-2")).hasMessageContaining("domain 0 twice");
    }

    @Test
    void mysqlSetMergesIntervalsAndPrintsCanonically() {
        MysqlGtidSet s = MysqlGtidSet.parse("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5:7,"
            + "00000000-0000-0000-0000-000000000001:1");
        UUID u = UUID.fromString("3e11fa47-71ca-11e1-9e33-c80aa9429562");
        s.add(new SourceGtid.Mysql(u, "", 6));
        s.add(new SourceGtid.Mysql(u, "", 9));

        assertThat(s).hasToString("00000000-0000-0000-0000-000000000001:1,3e11fa47-71ca-11e1-9e33-c80aa9429562:1-7:9");
        assertThat(s.contains(new SourceGtid.Mysql(u, "", 8))).isFalse();
        assertThat(s.contains(new SourceGtid.Mysql(u, "", 7))).isTrue();
    }

    @Test
    void mysqlTaggedGtidsStayApartFromUntaggedOnes() {
        MysqlGtidSet s = MysqlGtidSet.parse("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-3:tag1:1-2");
        assertThat(s).hasToString("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-3,3e11fa47-71ca-11e1-9e33-c80aa9429562:tag1:1-2");
    }

    @Test
    void trackerTurnsTransactionsIntoPositionText() {
        GtidTracker t = new GtidTracker("0-1-10");
        t.add(new SourceGtid.Mariadb(0, 1, 11));
        assertThat(t.snapshot()).isEqualTo("0-1-11");
        assertThat(new GtidTracker("").snapshot()).isEmpty();
    }

    @Test
    void coordinatesOrderByFileNumberThenOffset() {
        BinlogCoordinates a = BinlogCoordinates.parseOrNull("mysql-bin.000009:900");
        BinlogCoordinates b = BinlogCoordinates.parseOrNull("mysql-bin.000010:4");
        assertThat(a).isLessThan(b);
        assertThat(b.atOrAfter(a)).isTrue();
        assertThat(BinlogCoordinates.parseOrNull("0-1-100")).isNull();
        assertThat(BinlogCoordinates.parseOrNull("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5")).isNull();
    }
}
