package io.binlogapplier.pipeline;

import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL method's net effect on tables without a key: where an index leads with a column of the
 * rows' values and the removed values seldom share its value, each removed value goes as one
 * {@code DELETE … LIMIT n} in the batch; where they crowd onto a few values of it (a status column),
 * they are counted and deleted as lists, as before; so they are where the index leads with a text
 * column, which rows are matched on as bytes, through no index. Every table must match the source;
 * the target's general log shows which way each went.
 */
class KeylessDeletesIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    @Test
    void removedValuesGoOneDeleteEachWhereAnIndexFindsThemAndAsCountedListsWhereTheyCrowdOntoItsLeadingValue() {
        // The rows exist on both servers before the changes (not in the binlog): what the changes
        // remove, the target holds already, rather than the unit having added it a moment before.
        for (var m : java.util.List.of(SERVERS.source(), SERVERS.target())) {
            m.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE ks",
                // k spread over 100 values; equal rows, NULLs and text that differs only in case
                "CREATE TABLE ks.spread (k INT NOT NULL, v INT, note VARCHAR(8) NOT NULL, KEY k (k))",
                // three statuses
                "CREATE TABLE ks.status (status INT NOT NULL, v INT NOT NULL, KEY status (status))",
                // an index that leads with text: rows are matched on CAST(note AS BINARY), through no index
                "CREATE TABLE ks.textlead (note VARCHAR(8) NOT NULL, v INT NOT NULL, KEY note (note))",
                "INSERT INTO ks.textlead SELECT CONCAT('n', seq MOD 100), seq MOD 5 FROM ks.seq_1_to_400",
                "INSERT INTO ks.spread SELECT seq MOD 100, IF(seq MOD 7 = 0, NULL, seq MOD 3),"
                    + " IF(seq MOD 2 = 0, 'x', 'X') FROM ks.seq_1_to_400",
                "INSERT INTO ks.status SELECT seq MOD 3, seq MOD 40 FROM ks.seq_1_to_600");
        }
        String start = TestApplier.currentPosition(SERVERS.source());
        Random r = new Random(5);
        StringBuilder tx = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            int k = r.nextInt(100);
            tx.setLength(0);
            tx.append("BEGIN;");
            if (i % 3 == 0) {
                tx.append("UPDATE ks.textlead SET v = v + 1 WHERE note = 'n").append(k).append("' LIMIT 2;");
            }
            switch (i % 4) {
                case 0 -> tx.append("UPDATE ks.spread SET v = IFNULL(v, 0) + 1 WHERE k = ").append(k).append(';');
                case 1 -> tx.append("DELETE FROM ks.spread WHERE k = ").append(k).append(" LIMIT 1;")
                    .append("INSERT INTO ks.spread VALUES (").append(k).append(", NULL, 'x');");
                case 2 -> tx.append("UPDATE ks.status SET v = v + 1 WHERE status = ").append(r.nextInt(3))
                    .append(" AND v = ").append(r.nextInt(40)).append(';');
                default -> tx.append("DELETE FROM ks.status WHERE status = ").append(r.nextInt(3))
                    .append(" LIMIT 2; INSERT INTO ks.status VALUES (").append(r.nextInt(3)).append(", 7);");
            }
            tx.append("COMMIT");
            SERVERS.source().execute(tx.toString());
        }
        SERVERS.target().execute("SET GLOBAL log_output = 'TABLE'", "TRUNCATE mysql.general_log",
            "SET GLOBAL general_log = ON");
        try {
            ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "ks", start, "optimistic",
                1, "  method: sql\n"), "ks", "ks");
            TestApplier.runUntilCurrent(cfg);
        } finally {
            SERVERS.target().execute("SET GLOBAL general_log = OFF");
        }
        TableComparison.Report same = TableComparison.compare(SERVERS.source(), SERVERS.target(), "ks");
        assertThat(same.same()).as(same.toString()).isTrue();
        assertThat(general("%DELETE FROM `ks`.`spread` WHERE % LIMIT _%")).as("one DELETE per removed value").isPositive();
        assertThat(general("%SELECT CASE%FROM `ks`.`spread`%")).as("copies of ks.spread counted").isZero();
        assertThat(general("%SELECT CASE%FROM `ks`.`status`%")).as("copies of ks.status counted").isPositive();
        assertThat(general("%SELECT CASE%FROM `ks`.`textlead`%")).as("copies of ks.textlead counted").isPositive();
    }

    /** Entries of the target's general log whose text is like {@code pattern}. */
    private static long general(String pattern) {
        return SERVERS.target().queryLong("SELECT COUNT(*) FROM mysql.general_log WHERE argument LIKE '"
            + pattern.replace("'", "''") + "'");
    }
}
