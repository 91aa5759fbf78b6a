package io.binlogapplier.pipeline;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ApplierConfig;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.harness.MariaDbServers;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.harness.TableComparison;
import io.binlogapplier.harness.TestApplier;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * No failure commits part of a source transaction: an OutOfMemoryError thrown on purpose in the
 * reader, the scheduler or a worker while a 30 MB transaction (several ring parts) is on its way
 * leaves none of its rows on the target and the position before it; a restart then applies it
 * whole and every table matches.
 */
class AtomicFailureIT {
    @RegisterExtension
    static final MariaDbServers SERVERS = MariaDbServers.pair();

    /** 30,000 rows of 1 KB: about 30 MB of row events, four parts of {@link Pipeline#PART_BYTES}. */
    private static final int ROWS = 30_000;

    @ParameterizedTest(name = "{0}, apply.method {1}")
    @CsvSource({
        "READER_EVENT, sql", "READER_EVENT, binlog",
        "SCHEDULER_PART, sql", "SCHEDULER_PART, binlog",
        "WORKER_PART_APPLIED, sql", "WORKER_PART_APPLIED, binlog",
    })
    void anErrorInTheMiddleOfAMultiPartTransactionCommitsNoneOfIt(Faults.Point point, String method)
        throws InterruptedException {
        String db = ("atomic_" + point + "_" + method).toLowerCase(Locale.ROOT);
        String start = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("CREATE DATABASE " + db,
            "CREATE TABLE " + db + ".t (id INT PRIMARY KEY, pad VARCHAR(1000)) ENGINE=InnoDB",
            "CREATE TABLE " + db + ".before_it (id INT PRIMARY KEY) ENGINE=InnoDB",
            "INSERT INTO " + db + ".before_it VALUES (1)");
        String beforeBig = TestApplier.currentPosition(SERVERS.source());
        SERVERS.source().execute("INSERT INTO " + db + ".t SELECT seq, REPEAT(CHAR(65 + seq % 26), 1000) FROM "
            + db + ".seq_1_to_" + ROWS, "INSERT INTO " + db + ".before_it VALUES (2)");
        ApplierConfig cfg = new ConfigLoader().parse(TestApplier.yaml(SERVERS.servers(), db, start, "optimistic", 4,
            "  method: " + method + "\n"), "test", db);

        // everything before the big transaction applied first, so the fault can only hit the big one
        new Applier(cfg, PipelineMetrics.NONE, 30_000).run(new Applier.Until.At(BinlogCoordinates.parseOrNull(beforeBig)));
        Faults oom = oomOnce(point);
        assertThatThrownBy(() -> new Applier(cfg, PipelineMetrics.NONE, 30_000, new ApplierStatus(Clock.systemUTC()),
            oom).run(new Applier.Until.Current()))
            .isInstanceOfSatisfying(ApplierException.class, e -> {
                assertThat(e.exitCode()).isEqualTo(ExitCode.INTERNAL);
                assertThat(e).hasMessageContaining("OutOfMemoryError");
            });

        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t"))
            .as("rows of the failed transaction committed on the target").isZero();
        BinlogCoordinates saved = BinlogCoordinates.parseOrNull(TestApplier.savedPosition(SERVERS.target(), db));
        assertThat(saved).as("the saved position never passes the failed transaction")
            .isEqualTo(BinlogCoordinates.parseOrNull(beforeBig));

        TestApplier.runUntilCurrent(cfg);

        TableComparison.assertSame(SERVERS.source(), SERVERS.target(), db);
        assertThat(SERVERS.target().queryLong("SELECT COUNT(*) FROM " + db + ".t")).isEqualTo(ROWS);
    }

    /**
     * An OutOfMemoryError once, in the middle of the big transaction: at the third of its parts for
     * the scheduler and a worker, at the 1,500th event (of about 3,700) for the reader, which reads from just before it.
     */
    private static Faults oomOnce(Faults.Point where) {
        AtomicBoolean fired = new AtomicBoolean();
        AtomicInteger events = new AtomicInteger();
        return (point, part) -> {
            if (point != where) {
                return;
            }
            boolean now = part == null ? events.incrementAndGet() == 1_500 : part.part() == 2;
            if (now && fired.compareAndSet(false, true)) {
                throw new OutOfMemoryError("injected by the test at " + point);
            }
        };
    }
}
