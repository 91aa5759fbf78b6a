package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** QUERY_EVENT (2) status variables, database and statement from byte fixtures. */
class QueryEventTest {

    private static BinlogEvent.Query query(String fixture) {
        return (BinlogEvent.Query) HexFixtures.event(fixture);
    }

    private static String sql(BinlogEvent.Query q) {
        return new String(q.sql(), StandardCharsets.UTF_8);
    }

    @Test
    void mysql80DdlStatusVariablesAreAllReadAndTheStatementFollowsThem() {
        BinlogEvent.Query q = query("mysql80_query_ddl_all_status_vars");

        assertThat(q.threadId()).isEqualTo(42);
        assertThat(q.errorCode()).isZero();
        assertThat(q.database()).isEqualTo("shop");
        assertThat(sql(q)).isEqualTo("CREATE TABLE t9 (id INT PRIMARY KEY, at TIMESTAMP(6) DEFAULT CURRENT_TIMESTAMP(6))");
        QueryStatus s = q.status();
        assertThat(s.flags2()).isEqualTo(QueryStatus.OPTION_AUTO_IS_NULL | QueryStatus.OPTION_NO_FOREIGN_KEY_CHECKS);
        assertThat(s.sqlMode()).isEqualTo(0x45A00020L);
        assertThat(s.autoIncrementIncrement()).isEqualTo(2);
        assertThat(s.autoIncrementOffset()).isEqualTo(1);
        assertThat(s.clientCharset()).isEqualTo(255);
        assertThat(s.connectionCollation()).isEqualTo(255);
        assertThat(s.serverCollation()).isEqualTo(255);
        assertThat(s.timeZone()).isEqualTo("+01:00");
        assertThat(s.micros()).isEqualTo(123456);
        assertThat(s.explicitDefaultsForTimestamp()).isEqualTo(1);
        assertThat(s.defaultCollationForUtf8mb4()).isEqualTo(255);
        assertThat(s.databaseCollation()).isNull();
    }

    @Test
    void mariadbHrnowIsTheStatementMicrosecondsAndQXidIsSkipped() {
        BinlogEvent.Query q = query("mariadb_query_hrnow_xid");

        assertThat(q.header().serverId()).isEqualTo(4_000_000_000L);
        assertThat(q.threadId()).isEqualTo(77);
        assertThat(q.database()).isEqualTo("test");
        assertThat(sql(q)).isEqualTo("ALTER TABLE t2 ADD COLUMN c DATETIME(6) DEFAULT NOW(6)");
        QueryStatus s = q.status();
        assertThat(s.micros()).isEqualTo(654321);
        assertThat(s.flags2()).isZero();
        assertThat(s.sqlMode()).isEqualTo(0x54200000L);
        assertThat(s.clientCharset()).isEqualTo(33);
        assertThat(s.connectionCollation()).isEqualTo(33);
        assertThat(s.serverCollation()).isEqualTo(8);
        assertThat(s.timeZone()).isNull();
    }

    @Test
    void anUnknownStatusCodeStopsStatusParsingButDatabaseAndStatementAreStillFound() {
        BinlogEvent.Query q = query("mysql80_query_unknown_status_var");

        QueryStatus s = q.status();
        assertThat(s.sqlMode()).isEqualTo(0x45A00020L);
        assertThat(s.clientCharset()).isEqualTo(255);
        // the bytes after the unknown code look like Q_TIME_ZONE '+09:00'; they must not be read as such
        assertThat(s.timeZone()).isNull();
        assertThat(q.database()).isEqualTo("shop");
        assertThat(sql(q)).isEqualTo("INSERT INTO t1 VALUES (3)");
    }

    @Test
    void beginIsClassifiedFromItsStatementBytes() {
        BinlogEvent.Query q = query("mysql80_query_begin");

        assertThat(q.sqlForClassification()).isEqualTo("BEGIN");
        assertThat(q.database()).isEqualTo("shop");
        assertThat(q.header().flags()).isEqualTo(0x0008);
        assertThat(q.status().flags2()).isZero();
    }
}
