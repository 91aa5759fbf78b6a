package io.binlogapplier.pipeline;

import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run --until current} over a binlog that rotates on the way: the applier must go on through
 * every file to the source's end as of its start, also when an earlier file is longer than the
 * end's offset in the last one (a ROTATE's own position is the end of the file it closes).
 */
class UntilAcrossRotationsIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair(List.of("--max-binlog-size=4096"), List.of());

    @Test
    void untilCurrentAppliesEveryFileUpToTheSourcesEnd() {
        String db = "rotations";
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, pad VARCHAR(200) NOT NULL)");
        for (int i = 1; i <= 20; i++) {
            SERVERS.source().execute("INSERT INTO " + db + ".t VALUES (" + i + ", REPEAT('s', 150))");
        }
        // one transaction of about 220 KB fills a file of its own, far longer than what follows it
        SERVERS.source().execute("INSERT INTO " + db + ".t SELECT seq + 100, REPEAT('x', 200) FROM " + db
            + ".seq_1_to_1000");
        // the binlog rotates right after it: what follows starts a new file
        String afterBig = TestApplier.currentPosition(SERVERS.source());
        // the last file: a few small transactions, ending well before the offset where the large file ended
        for (int i = 1; i <= 3; i++) {
            SERVERS.source().execute("UPDATE " + db + ".t SET pad = 'last " + i + "' WHERE id = " + i);
        }
        String end = TestApplier.currentPosition(SERVERS.source());
        assertThat(fileNumber(start)).as("the binlog rotated").isLessThan(fileNumber(afterBig));
        assertThat(fileNumber(end)).as("the small transactions after it share one file").isEqualTo(fileNumber(afterBig));
        var cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "optimistic", 1,
            "  method: binlog\n"), "test", db);

        TestApplier.runUntilCurrent(cfg);

        assertThat(TestApplier.savedPosition(SERVERS.target(), db)).isEqualTo(end);
        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
    }

    private static int fileNumber(String position) {
        String file = position.substring(0, position.indexOf(':'));
        return Integer.parseInt(file.substring(file.lastIndexOf('.') + 1));
    }
}
