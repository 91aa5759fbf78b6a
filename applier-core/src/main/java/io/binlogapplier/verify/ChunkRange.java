package io.binlogapplier.verify;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The key range of one chunk: rows whose key is above {@code after} (or every row when null) and at or
 * below {@code upTo} (or every row above when null). Both null: the whole table. Values are as the
 * source's driver returned them, bound unchanged on both servers.
 */
public record ChunkRange(List<Object> after, List<Object> upTo) {
    public static final ChunkRange WHOLE = new ChunkRange(null, null);

    public ChunkRange {
        after = after == null ? null : List.copyOf(after);
        upTo = upTo == null ? null : List.copyOf(upTo);
    }

    /** For messages: {@code id in (2000, 4000]}, {@code (a,b) in (-inf, (1,'x')]}, {@code whole table}. */
    public String describe(List<String> key) {
        if (key.isEmpty()) {
            return "whole table (no primary or unique key)";
        }
        String cols = key.size() == 1 ? key.get(0) : "(" + String.join(",", key) + ")";
        return cols + " in (" + (after == null ? "-inf" : values(after)) + ", " + (upTo == null ? "+inf" : values(upTo))
            + (upTo == null ? ")" : "]");
    }

    static String values(List<Object> values) {
        String s = values.stream().map(ChunkRange::value).collect(Collectors.joining(","));
        return values.size() == 1 ? s : "(" + s + ")";
    }

    static String value(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Number) {
            return v.toString();
        }
        if (v instanceof byte[] b) {
            StringBuilder sb = new StringBuilder("0x");
            for (byte x : b) {
                sb.append(String.format("%02x", x));
            }
            return sb.toString();
        }
        return "'" + v.toString().replace("'", "''") + "'";
    }
}
