package io.binlogapplier.schedule;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The safety net behind write sets: conflicts keys cannot show (foreign-key checks and cascades,
 * gap locks, triggers, keys unknown to us). Given the target's lock waits, finds units that hold a
 * lock an earlier unit waits for. Commits are in source order, so such a later unit would wait for
 * the earlier one to commit while the earlier one waits for its lock: it must be rolled back and
 * retried once its predecessors have committed. Pure.
 */
public final class ConflictResolver {
    private ConflictResolver() {
    }

    /** One lock wait on the target: connection ids of the waiting and the blocking session. */
    public record Wait(long waiter, long blocker, String table) {
    }

    /** A later unit to roll back: its worker, its unit, the earlier unit it blocks, where. */
    public record Victim(int worker, long unit, long blockedUnit, String table, boolean alsoWaiting) {
    }

    /**
     * @param unitByConnection the unit each worker connection is applying (absent or 0: none)
     * @param workerByConnection worker index per connection
     */
    public static List<Victim> victims(List<Wait> waits, Map<Long, Long> unitByConnection,
                                       Map<Long, Integer> workerByConnection) {
        Set<Long> waiting = new HashSet<>();
        for (Wait w : waits) {
            waiting.add(w.waiter());
        }
        Map<Integer, Victim> byWorker = new LinkedHashMap<>();
        for (Wait w : waits) {
            Long waiterUnit = unitByConnection.get(w.waiter());
            Long blockerUnit = unitByConnection.get(w.blocker());
            Integer worker = workerByConnection.get(w.blocker());
            if (waiterUnit == null || blockerUnit == null || worker == null || waiterUnit == 0 || blockerUnit == 0
                || blockerUnit <= waiterUnit) {
                continue; // not ours, idle, or the natural order: a later unit waiting for an earlier one
            }
            Victim v = new Victim(worker, blockerUnit, waiterUnit, w.table(), waiting.contains(w.blocker()));
            byWorker.merge(worker, v, (a, b) -> a.blockedUnit() <= b.blockedUnit() ? a : b);
        }
        return new ArrayList<>(byWorker.values());
    }
}
