package io.binlogapplier.schedule;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongBiFunction;

/**
 * Tables whose changes keep meeting in lock conflicts that write sets do not show, learned while the
 * applier runs. InnoDB locks more than the rows a statement names. Inserting a value into a unique
 * secondary index that still holds delete-marked entries of that value (a row deleted or re-keyed,
 * not yet purged) takes next-key locks on those entries and on the entry after them, which belongs
 * to a row with another value that another unit may be changing. Two units with no key in common
 * then wait for each other, and the conflict monitor rolls the later one back.
 *
 * <p>Once a table has been named by {@link #CONFLICTS} such conflicts within {@link #WINDOW_NANOS},
 * every transaction that changes it also names the table's table-level key: its changes in
 * different units wait for each other (they go to a unit's tail) instead of running side by side and
 * losing to the conflict monitor. While it is contended it cannot show whether it still would
 * conflict, so after {@link #HOLD_NANOS} it is {@linkplain #release released}: its changes run side
 * by side again, and if the conflicts come back, three more make it contended again.
 *
 * <p>Thread-safe: the conflict monitor records conflicts, the scheduler reads {@link #keys}.
 */
public final class ContendedTables {
    /** Conflicts naming one table, within {@link #WINDOW_NANOS}, that make it contended. */
    public static final int CONFLICTS = 3;
    public static final long WINDOW_NANOS = 60_000_000_000L;
    /** How long a table stays contended. */
    public static final long HOLD_NANOS = 600_000_000_000L;

    /** A table as the target names it. */
    public record Name(String schema, String table) {
        @Override
        public String toString() {
            return quote(schema) + "." + quote(table);
        }
    }

    private final ToLongBiFunction<String, String> tableKey;
    /** Times of the recent conflicts per table not yet contended, by its table key; guarded by this. */
    private final Map<Long, ArrayDeque<Long>> recent = new HashMap<>();
    /** When each contended table became so, by its key, with its name; guarded by this. */
    private final Map<Long, Held> held = new HashMap<>();

    private record Held(Name name, long sinceNanos) {
    }

    /** The contended tables' keys, sorted; replaced whole, so the scheduler reads it without a lock. */
    private volatile long[] keys = new long[0];

    /**
     * @param tableKey a table's table-level write-set key, from its schema and name; names that differ
     *     only in case get the same key (conflicts are counted by it)
     */
    public ContendedTables(ToLongBiFunction<String, String> tableKey) {
        this.tableKey = tableKey;
    }

    /**
     * Records a lock conflict between units on {@code lockTable}, as the target's lock views name it
     * ({@code `schema`.`table`}, perhaps followed by a partition's name).
     *
     * @return the table, when this conflict has just made it contended
     */
    public synchronized Optional<Name> conflict(String lockTable, long nowNanos) {
        Optional<Name> parsed = parse(lockTable);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        Name name = parsed.get();
        long key = tableKey.applyAsLong(name.schema(), name.table());
        if (contended(key)) {
            return Optional.empty();
        }
        ArrayDeque<Long> times = recent.computeIfAbsent(key, k -> new ArrayDeque<>());
        times.addLast(nowNanos);
        while (nowNanos - times.peekFirst() > WINDOW_NANOS) {
            times.removeFirst();
        }
        if (times.size() < CONFLICTS) {
            return Optional.empty();
        }
        recent.remove(key);
        held.put(key, new Held(name, nowNanos));
        publish();
        return Optional.of(name);
    }

    /**
     * Releases the tables contended for {@link #HOLD_NANOS} or longer at {@code nowNanos}.
     *
     * @return their names (usually none)
     */
    public synchronized java.util.List<Name> release(long nowNanos) {
        if (held.isEmpty()) {
            return java.util.List.of();
        }
        java.util.List<Name> released = new java.util.ArrayList<>();
        for (java.util.Iterator<Held> it = held.values().iterator(); it.hasNext(); ) {
            Held h = it.next();
            if (nowNanos - h.sinceNanos() >= HOLD_NANOS) {
                released.add(h.name());
                it.remove();
            }
        }
        if (!released.isEmpty()) {
            publish();
        }
        return released;
    }

    /** Replaces {@link #keys} with the keys of the tables held now. */
    private void publish() {
        long[] now = held.keySet().stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(now);
        keys = now;
    }

    /** The table-level keys of the contended tables, sorted; empty (the usual case) when there are none. */
    public long[] keys() {
        return keys;
    }

    /** True when the table with this table-level key is contended. */
    public boolean contended(long tableKey) {
        return Arrays.binarySearch(keys, tableKey) >= 0;
    }

    /**
     * The schema and table of a lock view's {@code `schema`.`table`} (a backtick inside a name is
     * doubled); anything after the table's name (a partition) is ignored. Empty when it is not of that form.
     */
    static Optional<Name> parse(String lockTable) {
        if (lockTable == null) {
            return Optional.empty();
        }
        StringBuilder schema = new StringBuilder();
        int i = quoted(lockTable, 0, schema);
        if (i < 0 || i >= lockTable.length() || lockTable.charAt(i) != '.') {
            return Optional.empty();
        }
        StringBuilder table = new StringBuilder();
        if (quoted(lockTable, i + 1, table) < 0 || schema.isEmpty() || table.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Name(schema.toString(), table.toString()));
    }

    /** Reads a backtick-quoted name at {@code from} into {@code out}; returns the index after it, or -1. */
    private static int quoted(String s, int from, StringBuilder out) {
        if (from >= s.length() || s.charAt(from) != '`') {
            return -1;
        }
        int i = from + 1;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '`') {
                if (i + 1 < s.length() && s.charAt(i + 1) == '`') {
                    out.append('`');
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            out.append(c);
            i++;
        }
        return -1;
    }

    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
