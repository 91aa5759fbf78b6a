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

    /** @return target column index per source column index */
    public static int[] of(TableMap map, TableSchema target) {
        List<ColumnInfo> cols = target.columns();
        int n = map.columnCount();
        int[] result = new int[n];
        if (map.columnNames() != null && map.columnNames().size() == n) {
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
     * there is, as for a native replica). Pure.
     */
    public static boolean positional(TableMap map, TableSchema target) {
        List<String> names = map.columnNames();
        if (names == null) {
            return true;
        }
        List<ColumnInfo> cols = target.columns();
        if (names.size() > cols.size()) {
            return false;
        }
        for (int i = 0; i < names.size(); i++) {
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
