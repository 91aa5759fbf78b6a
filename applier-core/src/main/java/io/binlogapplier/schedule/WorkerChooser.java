package io.binlogapplier.schedule;

/**
 * The assignment rule that replaces Disruptor 3's WorkerPool: which worker applies a new unit.
 * Pure: given each worker's count of assigned-but-uncommitted units.
 *
 * <ol>
 *   <li>A unit that must wait for a unit still in flight goes to that unit's worker: it could not
 *       start earlier anyway, and the worker then runs the two back to back.</li>
 *   <li>Otherwise the least loaded worker, counting from the one after the last choice so that
 *       ties rotate.</li>
 * </ol>
 */
public final class WorkerChooser {
    private final int workers;
    private int next;

    public WorkerChooser(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1");
        }
        this.workers = workers;
    }

    /**
     * @param load per worker, units assigned and not yet committed
     * @param waitForWorker the worker of the unit this one waits for, or -1 when that unit has committed
     */
    public int choose(int[] load, int waitForWorker) {
        return choose(load, waitForWorker, workers);
    }

    /**
     * As {@link #choose(int[], int)}, choosing only among the first {@code active} workers (under
     * {@code workers: auto}); a unit that must wait still goes to the worker it waits for.
     */
    public int choose(int[] load, int waitForWorker, int active) {
        if (waitForWorker >= 0) {
            return waitForWorker;
        }
        int n = Math.max(1, Math.min(active, workers));
        int best = -1;
        for (int k = 0; k < n; k++) {
            int w = (next + k) % n;
            if (best < 0 || load[w] < load[best]) {
                best = w;
            }
        }
        next = (best + 1) % n;
        return best;
    }
}
