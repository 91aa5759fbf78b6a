package io.binlogapplier.apply;

import java.util.Arrays;

/**
 * Some cells of a row image, compared by content (byte arrays included): a lookup-key value for
 * {@link NetEffect}, a whole row value for {@link KeylessNetEffect}, an index value for read-ahead.
 * Immutable.
 */
public final class RowValues {
    private final Object[] values;
    private final int hash;

    private RowValues(Object[] values) {
        this.values = values;
        this.hash = Arrays.deepHashCode(values);
    }

    /** The cells of {@code image} at {@code columns}, in that order. */
    public static RowValues of(Object[] image, int[] columns) {
        Object[] values = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            values[i] = image[columns[i]];
        }
        return new RowValues(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowValues v && v.hash == hash && Arrays.deepEquals(v.values, values);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object v = values[i];
            sb.append(v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : v);
        }
        return sb.append(')').toString();
    }
}
