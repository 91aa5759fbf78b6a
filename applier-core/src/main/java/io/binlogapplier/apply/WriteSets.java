package io.binlogapplier.apply;

import io.binlogapplier.binlog.JsonText;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.transaction.Change;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Builds a transaction's write set: one 64-bit hash of (schema, table, key columns, key value) for
 * every PRIMARY/UNIQUE key value in every before and after image, and for every foreign key value
 * the hash of the parent key it references. A table without a lookup key (no primary or NOT NULL
 * unique key) adds its {@linkplain #tableKey table-level key} instead of row keys: its changes
 * conflict with every other change to that table and with nothing else. Two transactions conflict
 * when their sets intersect. Pure.
 *
 * <p>Key values are normalised so that values the target's collation treats as equal hash alike:
 * text loses trailing spaces (PAD SPACE collations), and under case- or accent-insensitive
 * collations it is case-folded and stripped of accents. A hash collision or a too-coarse
 * normalisation only adds a wait; the lock-conflict safety net covers what keys cannot show.
 */
public final class WriteSets {
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");

    private WriteSets() {
    }

    public static long[] of(List<Change> changes, Function<Change.Rows, TableSchema> schemas) {
        long[] out = new long[16];
        int n = 0;
        for (Change c : changes) {
            if (!(c instanceof Change.Rows rows)) {
                continue;
            }
            TableSchema t = schemas.apply(rows);
            if (t.lookupKey().isEmpty()) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, n * 2);
                }
                out[n++] = tableKey(t.schema(), t.table());
            }
            Keys keys = new Keys(rows.table(), t);
            for (int r = 0; r < rows.rows().size(); r++) {
                BitSet present = rows.kind() == RowsKind.UPDATE && r % 2 == 1 ? rows.afterColumns()
                    : rows.beforeColumns();
                if (n + keys.count() > out.length) {
                    out = Arrays.copyOf(out, Math.max(n * 2, n + keys.count()));
                }
                n = keys.add(rows.rows().get(r), present, out, n);
            }
        }
        long[] result = Arrays.copyOf(out, n);
        Arrays.sort(result);
        return dedupe(result);
    }

    /**
     * The keys one table's row images name, for the columns of one binlog table map: every unique key
     * of the target table, and every foreign key as the key of the parent it references.
     */
    public static final class Keys {
        private final long[] identities;
        /** The first {@code unique} identities are the table's unique keys, the rest its foreign keys. */
        private final int unique;
        private final List<List<Integer>> columns = new java.util.ArrayList<>();
        private final int[] sourceOf;
        private final List<ColumnInfo> targetColumns;

        public Keys(TableMap map, TableSchema t) {
            int[] targetOf = ColumnMapping.visible(map, t);
            sourceOf = new int[t.columns().size()];
            Arrays.fill(sourceOf, -1);
            for (int i = 0; i < targetOf.length; i++) {
                sourceOf[targetOf[i]] = i;
            }
            targetColumns = t.columns();
            List<Long> ids = new java.util.ArrayList<>();
            for (TableSchema.KeyInfo key : t.uniqueKeys()) {
                List<String> names = new java.util.ArrayList<>();
                for (int col : key.columns()) {
                    names.add(t.columns().get(col).name());
                }
                ids.add(keyIdentity(t.schema(), t.table(), names));
                columns.add(key.columns());
            }
            unique = ids.size();
            // A child row's foreign key names its parent's key: it conflicts with changes to that parent row.
            for (TableSchema.ForeignKey fk : t.foreignKeys()) {
                if (fk.columns().contains(-1)) {
                    continue;
                }
                ids.add(keyIdentity(fk.parentSchema(), fk.parentTable(), fk.parentColumns()));
                columns.add(fk.columns());
            }
            identities = ids.stream().mapToLong(Long::longValue).toArray();
        }

        /** Most keys one image names. */
        public int count() {
            return identities.length;
        }

        /**
         * Writes the keys {@code image} names (the columns {@code present} hold, no NULL in them) into
         * {@code out} from {@code n}, which must have room for {@link #count()} more; returns the new end.
         */
        public int add(Object[] image, BitSet present, long[] out, int n) {
            return add(0, identities.length, image, present, out, n);
        }

        /** As {@link #add}, the keys of the table's own unique keys only (the row's identity). */
        public int addUnique(Object[] image, BitSet present, long[] out, int n) {
            return add(0, unique, image, present, out, n);
        }

        /** As {@link #add}, the parent keys the row's foreign keys reference only. */
        public int addReferenced(Object[] image, BitSet present, long[] out, int n) {
            return add(unique, identities.length, image, present, out, n);
        }

        private int add(int from, int to, Object[] image, BitSet present, long[] out, int n) {
            for (int k = from; k < to; k++) {
                long h = keyValueHash(identities[k], columns.get(k), image, present, sourceOf, targetColumns);
                if (h != 0) {
                    out[n++] = h;
                }
            }
            return n;
        }
    }

    /** The key every change to a table shares when its rows cannot be told apart by a key. */
    public static long tableKey(String schema, String table) {
        return keyIdentity(schema, table, List.of("\u0000whole table"));
    }

    /** A key is identified by its table and column names, so a foreign key's reference matches it. */
    static long keyIdentity(String schema, String table, List<String> columns) {
        long h = mix(hashString(0x9E3779B97F4A7C15L, schema.toLowerCase(Locale.ROOT)),
            hashString(0, table.toLowerCase(Locale.ROOT)));
        for (String c : columns) {
            h = mix(h, hashString(0x51, c.toLowerCase(Locale.ROOT)));
        }
        return h;
    }

    /** @return the hash, or 0 when the image lacks a key column or has NULL in it (no key value) */
    static long keyValueHash(long keyHash, List<Integer> keyColumns, Object[] image, BitSet present, int[] sourceOf,
                             List<ColumnInfo> columns) {
        long h = keyHash;
        for (int target : keyColumns) {
            int source = sourceOf[target];
            if (source < 0 || !present.get(source) || image[source] == null) {
                return 0;
            }
            h = mix(h, valueHash(image[source], columns.get(target)));
        }
        return h == 0 ? 1 : h;
    }

    static long valueHash(Object v, ColumnInfo column) {
        if (v instanceof Long l) {
            return mix(1, l);
        }
        if (v instanceof Integer i) {
            return mix(2, i);
        }
        if (v instanceof byte[] b) {
            if (column.textual()) {
                return hashString(3, normaliseText(b, column));
            }
            return hashBytes(4, b, b.length);
        }
        if (v instanceof BigDecimal d) {
            return hashString(5, d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
        }
        if (v instanceof String s) {
            return hashString(6, s);
        }
        if (v instanceof Double d) {
            return mix(7, Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
        }
        if (v instanceof Float f) {
            return mix(8, Double.doubleToLongBits(f == 0.0f ? 0.0 : f));
        }
        if (v instanceof JsonText j) {
            return hashString(9, j.text());
        }
        return hashString(10, String.valueOf(v));
    }

    /** Text as the collation compares it, as far as we can tell without the collation tables. */
    static String normaliseText(byte[] b, ColumnInfo column) {
        String cs = column.charset() == null ? "" : column.charset();
        String s;
        if (cs.startsWith("utf8")) {
            s = new String(b, StandardCharsets.UTF_8);
        } else if (cs.equals("latin1")) {
            s = new String(b, java.nio.charset.Charset.forName("windows-1252"));
        } else if (cs.equals("ascii")) {
            s = new String(b, StandardCharsets.US_ASCII);
        } else {
            s = new String(b, StandardCharsets.ISO_8859_1);
            if (column.insensitiveCollation()) {
                // Unknown folding rules: every value of this column hashes alike (only ever too cautious).
                return "";
            }
        }
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        s = s.substring(0, end);
        if (column.insensitiveCollation()) {
            s = MARKS.matcher(Normalizer.normalize(s, Normalizer.Form.NFD)).replaceAll("");
            s = s.toLowerCase(Locale.ROOT).replace("ß", "ss");
        }
        return s;
    }

    private static long[] dedupe(long[] sorted) {
        if (sorted.length < 2) {
            return sorted;
        }
        int w = 1;
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] != sorted[w - 1]) {
                sorted[w++] = sorted[i];
            }
        }
        return w == sorted.length ? sorted : Arrays.copyOf(sorted, w);
    }

    static long hashString(long seed, String s) {
        long h = seed ^ 0xCBF29CE484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001B3L;
        }
        return fmix(h ^ s.length());
    }

    static long hashBytes(long seed, byte[] b, int n) {
        long h = seed ^ 0xCBF29CE484222325L;
        for (int i = 0; i < n; i++) {
            h = (h ^ (b[i] & 0xFF)) * 0x100000001B3L;
        }
        return fmix(h ^ n);
    }

    static long mix(long a, long b) {
        return fmix(a * 0x9E3779B97F4A7C15L + b);
    }

    /** MurmurHash3's 64-bit finaliser. */
    static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xFF51AFD7ED558CCDL;
        k ^= k >>> 33;
        k *= 0xC4CEB9FE1A85EC53L;
        k ^= k >>> 33;
        return k;
    }
}
