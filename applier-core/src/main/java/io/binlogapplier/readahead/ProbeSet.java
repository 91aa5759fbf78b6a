package io.binlogapplier.readahead;

import io.binlogapplier.ApplierException;
import io.binlogapplier.apply.ColumnInfo;
import io.binlogapplier.apply.ColumnMapping;
import io.binlogapplier.apply.RowValues;
import io.binlogapplier.apply.TableSchema;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.transaction.Change;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The index entries some row changes will read and write on the target, per table and index, each
 * value once: what read-ahead looks up before a worker makes the changes. Pure; one owner thread.
 *
 * <p>Per row change: the clustered index entry of the row (its primary key before the change, and
 * after it when an UPDATE moves it or for an INSERT, which goes into the page that key belongs in),
 * and every secondary index entry the change removes or adds: all of a deleted or inserted row's,
 * and for an UPDATE those of the indexes whose columns it changes, old value and new. An entry of a
 * non-unique index is named by its columns and the primary key's ({@link #entryOf}). Values with a
 * NULL cell, and indexes whose columns an image lacks (a MINIMAL or NOBLOB image), are left out.
 */
public final class ProbeSet {
    private final Map<String, Probe> probes = new LinkedHashMap<>();
    private int values;

    /** One cell of an index value, with what binding it needs. */
    public record Cell(Object value, int binlogType, boolean unsigned) {
    }

    /** Values to look up in one index of one table. */
    public static final class Probe {
        private final TableSchema table;
        private final TableSchema.KeyInfo index;
        private final Map<RowValues, Cell[]> values = new LinkedHashMap<>();

        Probe(TableSchema table, TableSchema.KeyInfo index) {
            this.table = table;
            this.index = index;
        }

        public TableSchema table() {
            return table;
        }

        public TableSchema.KeyInfo index() {
            return index;
        }

        public List<ColumnInfo> columns() {
            List<ColumnInfo> out = new ArrayList<>(index.columns().size());
            for (int c : index.columns()) {
                out.add(table.columns().get(c));
            }
            return out;
        }

        /** Distinct values, in the order first seen. */
        public Collection<Cell[]> values() {
            return values.values();
        }
    }

    /** Adds the entries {@code rows} will touch in {@code table}; false when it has nothing to add. */
    public boolean add(Change.Rows rows, TableSchema table) {
        return add(rows, table, Integer.MAX_VALUE);
    }

    /**
     * As {@link #add(Change.Rows, TableSchema)}, stopping once this set holds {@code limit} values:
     * the first rows of a transaction larger than the read-ahead window.
     */
    public boolean add(Change.Rows rows, TableSchema table, int limit) {
        int[] targetOf;
        try {
            targetOf = ColumnMapping.visible(rows.table(), table);
        } catch (ApplierException e) {
            return false; // the worker will report the mismatch
        }
        int[] sourceOf = new int[table.columns().size()];
        Arrays.fill(sourceOf, -1);
        for (int i = 0; i < targetOf.length; i++) {
            sourceOf[targetOf[i]] = i;
        }
        int[] types = rows.table().types();
        boolean[] unsigned = new boolean[targetOf.length];
        for (int i = 0; i < targetOf.length; i++) {
            unsigned[i] = rows.table().unsigned() != null ? rows.table().unsigned()[i]
                : table.columns().get(targetOf[i]).unsigned();
        }
        int before = values;
        List<TableSchema.KeyInfo> indexes = new ArrayList<>();
        List<int[]> columns = new ArrayList<>();
        for (TableSchema.KeyInfo declared : table.indexes()) {
            TableSchema.KeyInfo index = entryOf(table, declared);
            int[] cols = new int[index.columns().size()];
            boolean mapped = true;
            for (int k = 0; k < cols.length; k++) {
                cols[k] = sourceOf[index.columns().get(k)];
                mapped &= cols[k] >= 0;
            }
            if (mapped) {
                indexes.add(index);
                columns.add(cols);
            }
        }
        Probe[] probe = new Probe[indexes.size()];
        List<Object[]> images = rows.rows();
        boolean update = rows.kind() == RowsKind.UPDATE;
        BitSet present = rows.kind() == RowsKind.INSERT ? rows.afterColumns() : rows.beforeColumns();
        for (int r = 0; r < images.size() && values < limit; r += update ? 2 : 1) {
            for (int i = 0; i < probe.length; i++) {
                TableSchema.KeyInfo index = indexes.get(i);
                int[] cols = columns.get(i);
                if (!update) {
                    probe[i] = add(probe[i], table, index, images.get(r), cols, present, types, unsigned);
                    continue;
                }
                Object[] old = images.get(r);
                Object[] now = images.get(r + 1);
                boolean changes = changes(old, now, cols, rows.afterColumns());
                if (changes || index.columns().equals(table.primaryKey())) {
                    probe[i] = add(probe[i], table, index, old, cols, rows.beforeColumns(), types, unsigned);
                }
                if (changes) {
                    probe[i] = add(probe[i], table, index, now, cols, rows.afterColumns(), types, unsigned);
                }
            }
        }
        return values > before;
    }

    /**
     * The columns that name one entry of {@code index}: its own for the primary key and unique indexes;
     * for a non-unique index, its own followed by the primary key's, which InnoDB keeps in every
     * secondary entry. By its own columns alone, a lookup of a non-unique value (a status, a tenant)
     * read every entry holding it: 800,000 index entries for two status values in a trial, against 2.
     */
    static TableSchema.KeyInfo entryOf(TableSchema table, TableSchema.KeyInfo index) {
        if (table.primaryKey().isEmpty() || "PRIMARY".equals(index.name())
            || table.uniqueKeys().stream().anyMatch(u -> u.name().equals(index.name()))) {
            return index;
        }
        List<Integer> columns = new ArrayList<>(index.columns());
        for (int pk : table.primaryKey()) {
            if (!columns.contains(pk)) {
                columns.add(pk);
            }
        }
        return new TableSchema.KeyInfo(index.name(), columns);
    }

    /** Distinct values added so far, over every index. */
    public int size() {
        return values;
    }

    public Collection<Probe> probes() {
        return probes.values();
    }

    /** The UPDATE writes some of {@code cols} (present in its after image) with a different value. */
    private static boolean changes(Object[] old, Object[] now, int[] cols, BitSet after) {
        for (int c : cols) {
            if (after.get(c) && !java.util.Objects.deepEquals(old[c], now[c])) {
                return true;
            }
        }
        return false;
    }

    private Probe add(Probe probe, TableSchema table, TableSchema.KeyInfo index, Object[] image, int[] cols,
                      BitSet present, int[] types, boolean[] unsigned) {
        Cell[] cells = new Cell[cols.length];
        for (int k = 0; k < cols.length; k++) {
            int c = cols[k];
            if (!present.get(c) || image[c] == null) {
                return probe;
            }
            cells[k] = new Cell(image[c], types[c], unsigned[c]);
        }
        Probe p = probe != null ? probe : probes.computeIfAbsent(table.schema() + "\u0000" + table.table() + "\u0000"
            + index.name(), x -> new Probe(table, index));
        if (p.values.putIfAbsent(RowValues.of(image, cols), cells) == null) {
            values++;
        }
        return p;
    }
}
