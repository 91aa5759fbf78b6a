package io.binlogapplier.harness;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs a workload from several sessions at once on a server, as concurrent clients would. Errors
 * that concurrent clients meet and give up on (deadlock, lock wait timeout, a missing parent row, a
 * duplicate key) end that one step; any other fails the run.
 */
public final class Concurrently {
    private static final Set<Integer> GIVEN_UP = Set.of(1213, 1205, 1452, 1062);

    /** One step of one session. */
    public interface Work {
        void run(Connection c, Random r) throws SQLException;
    }

    private Concurrently() {
    }

    /**
     * @param steps steps in all, shared evenly by the sessions
     * @param seed the first session's random seed (the others follow it), so a run can be repeated
     */
    public static void run(MariaDb server, int sessions, int steps, long seed, Work work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < sessions; t++) {
            long mine = seed + t;
            futures.add(pool.submit(() -> {
                Random r = new Random(mine);
                try (Connection c = server.connect()) {
                    for (int i = 0; i < steps / sessions; i++) {
                        try {
                            work.run(c, r);
                        } catch (SQLException e) {
                            if (!GIVEN_UP.contains(e.getErrorCode())) {
                                throw e;
                            }
                        }
                    }
                }
                return null;
            }));
        }
        try {
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
