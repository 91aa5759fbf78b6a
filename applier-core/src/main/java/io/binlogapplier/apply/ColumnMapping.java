package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.TableMap;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which target column each source column of a row image goes to. With column names in the binlog
 * ({@code binlog_row_metadata=FULL}) columns match by name, so the target may order them
 * differently; otherwise by position, and the column counts must agree. Pure.
 */
public final class ColumnMapping {
    private ColumnMapping() {
    }

    /**
     * As {@link #of}, for a table whose source rows carry hidden columns after the visible ones
     * ({@link TableSchema#hiddenColumns}: system versioning's period columns, a long unique key's hash):
     * the mapping of the visible columns only (as many as the target shows), for what reads a row's
     * visible values (write-set keys, read-ahead). Other tables: {@link #of}.
     */
    public static int[] visible(TableMap map, TableSchema target) {
        int shown = target.columns().size();
        if (!target.hiddenColumns() || map.columnCount() <= shown) {
            return of(map, target);
        }
        return mapping(map, target, shown);
    }

    /** @return target column index per source column index */
    public static int[] of(TableMap map, TableSchema target) {
        return mapping(map, target, map.columnCount());
    }

    /** The mapping of the source's first {@code n} columns. */
    private static int[] mapping(TableMap map, TableSchema target, int n) {
        List<ColumnInfo> cols = target.columns();
        int[] result = new int[n];
        if (map.columnNames() != null && map.columnNames().size() == map.columnCount()) {
            Map<String, Integer> byName = new HashMap<>();
            for (ColumnInfo c : cols) {
                byName.put(c.name().toLowerCase(Locale.ROOT), c.ordinal());
            }
            for (int i = 0; i < n; i++) {
                Integer t = byName.get(map.columnNames().get(i).toLowerCase(Locale.ROOT));
                if (t == null) {
                    throw mismatch(target, "has no column `" + map.columnNames().get(i) + "`");
                }
                result[i] = t;
            }
            return result;
        }
        if (cols.size() != n) {
            throw mismatch(target, "has " + cols.size() + " columns where the source row has " + n);
        }
        for (int i = 0; i < n; i++) {
            result[i] = i;
        }
        return result;
    }

    /**
     * True when the source's columns are the target's first ones in the same order, as far as the
     * binlog tells: it names them ({@code binlog_row_metadata=FULL}) or not (then position is all
     * there is, as for a native replica). The hidden columns of a system-versioned table or a long
     * unique key come after every visible one, in the source's rows only. Pure.
     */
    public static boolean positional(TableMap map, TableSchema target) {
        List<String> names = map.columnNames();
        if (names == null) {
            return true;
        }
        List<ColumnInfo> cols = target.columns();
        if (names.size() > cols.size() && !target.hiddenColumns()) {
            return false;
        }
        for (int i = 0; i < Math.min(names.size(), cols.size()); i++) {
            if (!names.get(i).equalsIgnoreCase(cols.get(i).name())) {
                return false;
            }
        }
        return true;
    }

    private static ApplierException mismatch(TableSchema target, String what) {
        return new ApplierException(ExitCode.TARGET_SCHEMA_MISMATCH, "target table " + target + " " + what
            + ": make its definition match the source's (SHOW CREATE TABLE on both), then restart");
    }
}
