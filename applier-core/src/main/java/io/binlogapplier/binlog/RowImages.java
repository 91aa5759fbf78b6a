package io.binlogapplier.binlog;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.RandomAccess;

/**
 * The row images of one rows event, decoded when first read. Counting them only walks the cells'
 * widths ({@link RowImageDecoder#skip}): the BINLOG apply method sends the raw event and, in
 * conservative mode, nothing needs the values, so a million-row transaction is never turned into
 * millions of Java objects (allocation and garbage collection were most of the applier's CPU on
 * such transactions). Whoever reads a value first (the SQL method, the write sets of optimistic
 * mode, a unit applied again as SQL) decodes them all, once; safe to read from several threads.
 */
final class RowImages extends AbstractList<Object[]> implements RandomAccess {
    private final byte[] body;
    private final int start;
    private final TableMap map;
    private final boolean update;
    private final BitSet before;
    private final BitSet after;
    private final int size;
    private volatile List<Object[]> decoded;

    /**
     * Counts the images of {@code body} from {@code start} on (throws {@link BinlogFormatException}
     * when the cells do not fill the body exactly, as decoding would).
     */
    RowImages(byte[] body, int start, TableMap map, boolean update, BitSet before, BitSet after) {
        this.body = body;
        this.start = start;
        this.map = map;
        this.update = update;
        this.before = before;
        this.after = after;
        ByteReader r = new ByteReader(body, start, body.length);
        int beforeCount = before.cardinality();
        int afterCount = after.cardinality();
        int n = 0;
        while (r.hasRemaining()) {
            RowImageDecoder.skip(r, map, before, beforeCount);
            n++;
            if (update) {
                RowImageDecoder.skip(r, map, after, afterCount);
                n++;
            }
        }
        this.size = n;
    }

    /** Decodes the images of {@code body} from {@code start} on, now. */
    static List<Object[]> decode(byte[] body, int start, TableMap map, boolean update, BitSet before, BitSet after) {
        ByteReader r = new ByteReader(body, start, body.length);
        int beforeCount = before.cardinality();
        int afterCount = after.cardinality();
        List<Object[]> rows = new ArrayList<>();
        while (r.hasRemaining()) {
            rows.add(RowImageDecoder.decode(r, map, before, beforeCount));
            if (update) {
                rows.add(RowImageDecoder.decode(r, map, after, afterCount));
            }
        }
        return Collections.unmodifiableList(rows);
    }

    /** True once the values have been decoded (for tests). */
    boolean isDecoded() {
        return decoded != null;
    }

    private List<Object[]> images() {
        List<Object[]> d = decoded;
        if (d == null) {
            synchronized (this) {
                d = decoded;
                if (d == null) {
                    d = decode(body, start, map, update, before, after);
                    decoded = d;
                }
            }
        }
        return d;
    }

    @Override
    public Object[] get(int index) {
        return images().get(index);
    }

    @Override
    public int size() {
        return size;
    }
}
