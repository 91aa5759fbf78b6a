package io.binlogapplier.schedule;

import io.binlogapplier.config.ApplyMode;
import io.binlogapplier.position.GtidTracker;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.transaction.CommitGroup;
import io.binlogapplier.transaction.Transaction;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Forms apply units (block commit) and decides, for each, which earlier unit it must wait for
 * and which worker applies it. Pure logic, one thread (the scheduler handler), no JDBC.
 *
 * <p>Dependencies, by mode:
 * <ul>
 *   <li><b>conservative</b>, MariaDB: a transaction waits for every transaction of earlier commit
 *       groups (same {@code commit_id} = same group); MySQL: for every transaction whose
 *       {@code sequence_number <= last_committed}, with a full barrier at each new binlog file
 *       (the numbers restart there); without either, for the transaction before it.</li>
 *   <li><b>optimistic</b>: for the last earlier transaction sharing a write-set key.</li>
 *   <li>both: a barrier waits for everything before it, and everything after waits for it.</li>
 * </ul>
 * A transaction joins the open unit when that adds no wait the unit did not already have. In
 * optimistic mode it also joins when it shares a key with an earlier unit still in flight (the
 * open unit commits after that unit anyway), but into the unit's <em>tail</em>: the worker applies
 * the unit's other transactions first, then waits for the units the tail needs, then applies the
 * tail in source order. A later transaction that shares a key with one in the tail goes there too
 * (after a transaction the tail holds without keys, every later one does), so every pair of
 * transactions the move reorders has no key in common: the same condition under which two units
 * run side by side in either order. What keys cannot show (two values a collation holds equal that
 * hash apart) shows as an error; a unit retried applies every transaction in source order.
 *
 * <p>Why: during a catch-up the scheduler runs far ahead of the commits, so most transactions
 * share some key with a unit in flight. Cutting the unit there made units of a dozen transactions
 * where fifty fit; waiting at that transaction inside the unit (as before the tail) left the unit's
 * later transactions waiting too, and on a target that reads its pages from disk, workers waiting
 * are page reads not in flight. Waiting holds the unit's locks; a conflict the keys do not show is
 * then resolved by preempting the later unit, as any other.
 */
public final class UnitScheduler {
    private final ApplyMode mode;
    private final int workers;
    private final UnitBounds bounds;
    private final GtidTracker gtids;
    private final SourcePosition.ResumeBy resumeBy;
    private final WorkerChooser chooser;

    private long lastUnit;
    private final Map<Long, Integer> workerOfUnit = new HashMap<>();
    private final int[] load;
    /** Workers that take new units (all of them, unless {@code workers: auto} says fewer). */
    private int active;

    // the open unit
    private Open open;
    /** Every unit up to this one has committed (as told by the latest {@link #schedule} call). */
    private long committed;

    // dependency state
    private long floor;                  // last barrier unit: everything later waits for it
    private long lastTransactionUnit;    // unit of the most recent transaction
    private Object groupKey;             // MariaDB commit group of the most recent transaction
    private long previousGroupsUnit;     // unit holding the last transaction of earlier groups
    private String clockFile;
    private long clockBarrier;
    private final TreeMap<Long, Long> unitOfSequence = new TreeMap<>();
    private final HashMap<Long, Long> unitOfKey = new HashMap<>();
    /** Optimistic mode: the latest unit holding an unkeyed transaction, and the latest one before it. */
    private long unkeyedUnit;
    private long unkeyedBefore;
    /** Sizes above which {@link #prune} sweeps {@link #unitOfKey} and {@link #workerOfUnit}. */
    private int pruneKeysAbove = MIN_PRUNE_KEYS;
    private int pruneUnitsAbove = MIN_PRUNE_UNITS;
    private long sweeps;
    static final int MIN_PRUNE_KEYS = 100_000;
    static final int MIN_PRUNE_UNITS = 10_000;

    private static final class Open {
        long id;
        int worker;
        long startWait;
        int transactions;
        long bytes;
        long startNanos;
        boolean barrier;
        boolean pending;
        /** The latest unit this unit waits for at its start: what its transactions outside the tail may need. */
        long waited;
        /** The wait the next transaction joins with (set when it was admitted). */
        long nextJoinWait;
        /** The next transaction joins the tail (set when it was admitted). */
        boolean nextDeferred;
        /** Keys of the tail's transactions (null while the tail is empty). */
        Set<Long> tailKeys;
        /** The tail holds a transaction without keys: every later transaction joins the tail. */
        boolean tailTakesAll;
    }

    /** What follows the part being scheduled, if the ring already has it. */
    public sealed interface Lookahead {
        /** A marker (heartbeat, end of stream): the unit ends here. */
        record Marker() implements Lookahead {
        }

        /** The first part of the next transaction, with its traits. */
        record Next(Transaction part, TransactionTraits traits) implements Lookahead {
        }
    }

    public UnitScheduler(ApplyMode mode, int workers, UnitBounds bounds, GtidTracker gtids,
                         SourcePosition.ResumeBy resumeBy) {
        this.mode = mode;
        this.workers = workers;
        this.bounds = bounds;
        this.gtids = gtids;
        this.resumeBy = resumeBy;
        this.chooser = new WorkerChooser(workers);
        this.load = new int[workers];
        this.active = workers;
    }

    /**
     * How many workers take new units from now on ({@link WorkerGovernor}); units already assigned
     * stay where they are. Any value from 1 to the workers configured is correct: which worker
     * applies a unit never changes what it waits for.
     */
    public void activeWorkers(int n) {
        active = Math.max(1, Math.min(workers, n));
    }

    /**
     * Schedules one transaction part.
     *
     * @param traits the transaction's traits (use the same object for every part)
     * @param next what follows, or null when the ring has nothing more yet (the unit then ends)
     * @param committed the newest unit id committed so far (every unit up to it is committed)
     */
    public Decision schedule(Transaction part, TransactionTraits traits, Lookahead next, long nowNanos,
                             long committed) {
        prune(committed);
        this.committed = committed;
        boolean start = false;
        long joinWait = 0;
        boolean deferred = false;
        if (part.part() == 0) {
            if (open == null) {
                start = true;
                long wait = dependency(part, traits, false);
                open = new Open();
                open.id = ++lastUnit;
                if (mode == ApplyMode.OPTIMISTIC && active > 1 && !traits.barrier() && part.lastPart()
                    && wait > Math.max(floor, committed)) {
                    // The first transaction waits for a unit in flight: it starts the unit's tail, and the
                    // unit starts now (after the last barrier), so that what follows it need not wait.
                    joinWait = wait;
                    deferred = true;
                    toTail(open, traits);
                    wait = floor > committed ? floor : 0;
                }
                open.startWait = wait;
                open.waited = wait;
                open.startNanos = nowNanos;
                open.barrier = traits.barrier();
                open.pending = traits.pending();
                Integer waitWorker = open.startWait > committed ? workerOfUnit.get(open.startWait) : null;
                open.worker = chooser.choose(load, waitWorker == null ? -1 : waitWorker, active);
                workerOfUnit.put(open.id, open.worker);
                load[open.worker]++;
            }
            if (!start) {
                joinWait = open.nextJoinWait;
                deferred = open.nextDeferred;
                open.nextJoinWait = 0;
                open.nextDeferred = false;
            }
            record(part, traits);
        }
        open.bytes += part.sizeBytes();
        Open unit = open;
        if (!part.lastPart()) {
            return new Decision(unit.id, unit.worker, start, unit.startWait, false, null, 0, unit.barrier,
                unit.pending, joinWait, deferred);
        }
        unit.transactions++;
        if (part.head().gtid() != null) {
            gtids.add(part.head().gtid());
        }
        boolean end = !(next instanceof Lookahead.Next n) || !canJoin(unit, n.part(), n.traits(), nowNanos);
        SourcePosition after = null;
        if (end) {
            after = new SourcePosition(part.end().end(), gtids.snapshot(), resumeBy);
            open = null;
        }
        return new Decision(unit.id, unit.worker, start, unit.startWait, end, after, unit.transactions, unit.barrier,
            unit.pending, joinWait, deferred);
    }

    /** Sweeps of the key and unit maps so far (see {@link #prune}). */
    long sweeps() {
        return sweeps;
    }

    /** Write-set keys remembered now. */
    int keysRemembered() {
        return unitOfKey.size();
    }

    /** A unit committed: its worker's load drops. Call in commit order. */
    public void committed(long unitId) {
        Integer w = workerOfUnit.get(unitId);
        if (w != null) {
            load[w]--;
        }
    }

    /** The open unit is abandoned (end of stream inside a multi-part transaction). */
    public void abandonOpenUnit() {
        open = null;
    }

    public long lastUnit() {
        return lastUnit;
    }

    /** Nanoseconds until the open unit reaches its delay bound (0 when none is open or it has). */
    public long openUnitTimeLeft(long nowNanos) {
        if (open == null) {
            return 0;
        }
        long left = bounds.maxDelayNanos() - (nowNanos - open.startNanos);
        return Math.max(0, left);
    }

    /** True while a unit has begun but not ended. */
    public boolean unitOpen() {
        return open != null;
    }

    private boolean canJoin(Open unit, Transaction t, TransactionTraits traits, long nowNanos) {
        if (t.part() != 0 || traits.barrier() || unit.barrier || !t.lastPart()) {
            return false;
        }
        if (unit.transactions >= bounds.maxTransactions(active) || unit.bytes + t.sizeBytes() > bounds.maxBytes()
            || nowNanos - unit.startNanos >= bounds.maxDelayNanos()) {
            return false;
        }
        if (workers == 1 || (active == 1 && aloneInFlight(unit.worker))) {
            // Every unit in flight is on this unit's worker, which applies them in order: whatever
            // the transaction depends on commits before this unit starts. Once the unit has a tail
            // (begun while other workers had units in flight), what follows joins the tail, after it.
            if (unit.tailKeys != null || unit.tailTakesAll) {
                unit.nextDeferred = true;
                unit.tailTakesAll = true;
            }
            return true;
        }
        long dep = dependency(t, traits, true);
        boolean behindTail = unit.tailTakesAll || unit.tailKeys != null && sharesKey(unit.tailKeys, traits);
        // A unit that is already committed, or one this unit waits for already, is no further wait.
        if (!behindTail && dep <= Math.max(unit.waited, committed)) {
            return true;
        }
        if (mode == ApplyMode.OPTIMISTIC && dep < unit.id) {
            unit.nextJoinWait = dep > Math.max(unit.waited, committed) ? dep : 0;
            unit.nextDeferred = true;
            toTail(unit, traits);
            return true;
        }
        return false;
    }

    /** Remembers that a transaction with {@code traits} is in the tail of {@code unit}. */
    private static void toTail(Open unit, TransactionTraits traits) {
        if (traits.unkeyed()) {
            unit.tailTakesAll = true;
            return;
        }
        if (unit.tailKeys == null) {
            unit.tailKeys = new HashSet<>();
        }
        for (long k : traits.writeSet()) {
            unit.tailKeys.add(k);
        }
    }

    private static boolean sharesKey(Set<Long> keys, TransactionTraits traits) {
        if (traits.unkeyed()) {
            return true;
        }
        for (long k : traits.writeSet()) {
            if (keys.contains(k)) {
                return true;
            }
        }
        return false;
    }

    /** True when no worker but {@code worker} holds a unit not yet committed. */
    private boolean aloneInFlight(int worker) {
        for (int w = 0; w < load.length; w++) {
            if (w != worker && load[w] > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * The unit {@code t} must wait for: as the first transaction of a new unit, or (joined) as a
     * member of the open unit, where transactions of the open unit itself need no waiting.
     */
    private long dependency(Transaction t, TransactionTraits traits, boolean joined) {
        long openId = joined ? open.id : -1;
        if (traits.barrier()) {
            return lastUnit; // everything issued so far (a barrier never joins a unit)
        }
        long dep;
        if (mode == ApplyMode.OPTIMISTIC && traits.unkeyed()) {
            // no write set: after everything before it
            dep = everythingUpTo(lastTransactionUnit, openId);
        } else if (mode == ApplyMode.OPTIMISTIC) {
            // after the last unit sharing a key, and after the last unit whose keys nobody knows
            dep = unkeyedUnit != openId ? unkeyedUnit : unkeyedBefore;
            for (long key : traits.writeSet()) {
                Long u = unitOfKey.get(key);
                if (u != null && u != openId) {
                    dep = Math.max(dep, u);
                }
            }
        } else {
            dep = everythingUpTo(followedUnit(t), openId);
        }
        return Math.max(dep, floor);
    }

    /** "Everything up to the transaction in unit u": inside the open unit that means every earlier unit. */
    private static long everythingUpTo(long u, long openId) {
        return u == openId ? openId - 1 : u;
    }

    /** Conservative mode: the unit holding the last transaction {@code t} must follow. */
    private long followedUnit(Transaction t) {
        CommitGroup g = t.head().group();
        if (g.hasLogicalClock()) {
            if (!g.binlogFile().equals(clockFile)) {
                return lastTransactionUnit;
            }
            Map.Entry<Long, Long> e = unitOfSequence.floorEntry(g.lastCommitted());
            return Math.max(clockBarrier, e == null ? 0 : e.getValue());
        }
        if (g.hasMariadbCommitId()) {
            return g.commitId() == (groupKey instanceof Long l ? l : Long.MIN_VALUE) ? previousGroupsUnit
                : lastTransactionUnit;
        }
        return lastTransactionUnit;
    }

    private void record(Transaction t, TransactionTraits traits) {
        long unit = open.id;
        CommitGroup g = t.head().group();
        if (g.hasLogicalClock()) {
            if (!g.binlogFile().equals(clockFile)) {
                clockFile = g.binlogFile();
                clockBarrier = lastTransactionUnit;
                unitOfSequence.clear();
            }
            unitOfSequence.put(g.sequenceNumber(), unit);
        }
        Object key = g.hasMariadbCommitId() ? (Object) g.commitId() : new Object();
        if (!key.equals(groupKey)) {
            previousGroupsUnit = lastTransactionUnit;
            groupKey = key;
        }
        for (long k : traits.writeSet()) {
            unitOfKey.put(k, unit);
        }
        if (traits.unkeyed() && unkeyedUnit != unit) {
            unkeyedBefore = unkeyedUnit;
            unkeyedUnit = unit;
        }
        if (traits.barrier()) {
            floor = unit;
        }
        lastTransactionUnit = unit;
    }

    /**
     * Forgets keys and units that committed (a dependency on them is no wait). A sweep visits every
     * entry, and what it cannot remove belongs to units still in flight, which during a catch-up can
     * be more than the threshold: the next sweep then waits until the map has doubled, so sweeping
     * costs O(1) per transaction however far the scheduler runs ahead of the commits.
     */
    private void prune(long committed) {
        if (unitOfKey.size() > pruneKeysAbove) {
            unitOfKey.values().removeIf(u -> u <= committed);
            sweeps++;
            pruneKeysAbove = Math.max(MIN_PRUNE_KEYS, 2 * unitOfKey.size());
        }
        if (unitOfSequence.size() > 10_000) {
            Iterator<Map.Entry<Long, Long>> it = unitOfSequence.entrySet().iterator();
            while (it.hasNext() && unitOfSequence.size() > 1) {
                if (it.next().getValue() <= committed) {
                    it.remove();
                } else {
                    break;
                }
            }
        }
        if (workerOfUnit.size() > pruneUnitsAbove) {
            workerOfUnit.keySet().removeIf(u -> u <= committed);
            sweeps++;
            pruneUnitsAbove = Math.max(MIN_PRUNE_UNITS, 2 * workerOfUnit.size());
        }
    }
}
