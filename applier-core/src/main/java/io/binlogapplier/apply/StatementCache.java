package io.binlogapplier.apply;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The prepared statements of one worker connection, at most {@code capacity} of them: the least
 * recently used one is closed when another is prepared past that. A server counts every open
 * prepared statement against {@code max_prepared_stmt_count} (16,382 by default, for all sessions
 * together), and a worker keeps one per table, statement form and row count: thousands of tables
 * times a few dozen shapes, times the workers, would exceed it and stop the applier. Pure apart
 * from {@code close}; one owner thread; not thread-safe.
 *
 * @param <K> the statement's shape
 * @param <V> the statement
 */
public final class StatementCache<K, V> {
    private final int capacity;
    private final Consumer<V> close;
    private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(64, 0.75f, true);

    public StatementCache(int capacity, Consumer<V> close) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
        this.close = close;
    }

    /** The statement for {@code key}, now the most recently used; null when there is none. */
    public V get(K key) {
        return entries.get(key);
    }

    /** Keeps {@code value} for {@code key}, closing the least recently used statement past the capacity. */
    public void put(K key, V value) {
        V old = entries.put(key, value);
        if (old != null && old != value) {
            close.accept(old);
        }
        if (entries.size() > capacity) {
            Iterator<Map.Entry<K, V>> eldest = entries.entrySet().iterator();
            V v = eldest.next().getValue();
            eldest.remove();
            close.accept(v);
        }
    }

    /** Closes and forgets every statement whose key matches. */
    public void closeAll(Predicate<K> which) {
        Iterator<Map.Entry<K, V>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<K, V> e = it.next();
            if (which.test(e.getKey())) {
                it.remove();
                close.accept(e.getValue());
            }
        }
    }

    int size() {
        return entries.size();
    }
}
