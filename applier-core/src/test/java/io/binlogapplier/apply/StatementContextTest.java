package io.binlogapplier.apply;

import io.binlogapplier.binlog.QueryStatus;
import io.binlogapplier.transaction.Change;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatementContextTest {
    @Test
    void theSourceSessionIsRecreatedInOneSet() {
        QueryStatus q = new QueryStatus(QueryStatus.OPTION_NO_FOREIGN_KEY_CHECKS, 1411383296L, 33, 33, 8,
            "Europe/Berlin", 2, 1, 45, 1234, null, null);
        Change.Statement s = new Change.Statement("db", "CREATE TABLE t (id INT)".getBytes(), q, true, 1700000000L,
            5L, null, new long[] {1, 2}, 10);

        assertThat(StatementRunner.contextSql(s)).isEqualTo("SET SESSION timestamp=1700000000.001234,"
            + " sql_mode=1411383296, collation_connection=33, collation_server=8, collation_database=45,"
            + " time_zone='Europe/Berlin', foreign_key_checks=0, unique_checks=1, auto_increment_increment=2,"
            + " auto_increment_offset=1, insert_id=5, rand_seed1=1, rand_seed2=2, autocommit=1");
    }

    /**
     * Without a time zone the server's default applies; without auto-increment settings (the source
     * writes them only when not 1 and 1) they are 1 and 1, not what an earlier statement set.
     */
    @Test
    void withoutATimeZoneTheServerDefaultApplies() {
        Change.Statement s = new Change.Statement("", "DROP TABLE t".getBytes(), QueryStatus.EMPTY, true, 5, null,
            null, null, 10);
        assertThat(StatementRunner.contextSql(s)).isEqualTo("SET SESSION timestamp=5, time_zone=@@global.time_zone,"
            + " auto_increment_increment=1, auto_increment_offset=1, autocommit=1");
    }

    /** DDL runs outside a transaction, as on the native replica; a statement that commits nothing keeps the unit's. */
    @Test
    void onlyAStatementThatCommitsRunsWithAutocommit() {
        Change.Statement s = new Change.Statement("db", "INSERT INTO myisam_t VALUES (1)".getBytes(), QueryStatus.EMPTY,
            false, 5, null, null, null, 10);
        assertThat(StatementRunner.contextSql(s)).doesNotContain("autocommit");
    }
}
