package io.binlogapplier.pipeline;

import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The SQL method on tables a foreign key links, where grouping by key meets a row the source removed and wrote again. */
class CascadeReinsertIT {
    /** Its own pair: {@code LinkedTablesIT} applies its source's whole binlog and counts every retry in it. */
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    /**
     * A child row that a cascade removed and the source then inserted again, in one unit: grouped by key the
     * insert met the row still there (a duplicate key), the unit was applied again in source order and
     * matched. Found by a new-user trial; the log used to advise repairing a target that was never wrong.
     */
    @Test
    void aChildRowACascadeRemovedAndTheSourceInsertedAgainMatches() {
        String at = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE lkc", "CREATE TABLE lkc.p (k INT PRIMARY KEY)",
            "CREATE TABLE lkc.c (id INT PRIMARY KEY, pk INT, FOREIGN KEY (pk) REFERENCES lkc.p (k)"
                + " ON DELETE CASCADE ON UPDATE CASCADE)",
            "CREATE TABLE lkc.other (id INT PRIMARY KEY, v INT)",
            "INSERT INTO lkc.p VALUES (1), (2), (3)", "INSERT INTO lkc.other VALUES (1, 1)",
            "INSERT INTO lkc.c VALUES (41, 2)", "UPDATE lkc.p SET k = 20 WHERE k = 2",
            "UPDATE lkc.other SET v = v + 1 WHERE id = 1", "DELETE FROM lkc.p WHERE k = 20",
            "INSERT INTO lkc.c VALUES (41, 3)");
        for (String c : List.of("conservative:1", "optimistic:4")) {
            SERVERS.target().execute("DROP DATABASE IF EXISTS lkc");
            String mode = c.substring(0, c.indexOf(':'));
            int workers = Integer.parseInt(c.substring(c.indexOf(':') + 1));
            TestApplier.runUntilCurrent(new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), "lkc_" + mode, at,
                mode, workers, "  method: sql\n  unit_max_delay: 10s\n"), "lkc", "lkc_" + mode));
            TableComparison.Report r = TableComparison.compare(SERVERS.source(), SERVERS.target(), "lkc");
            assertThat(r.same()).as(c + ": " + r).isTrue();
            assertThat(SERVERS.target().queryString("SELECT GROUP_CONCAT(id, ':', pk) FROM lkc.c")).isEqualTo("41:3");
        }
    }

}
