package io.binlogapplier.binlog;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Rewrites the body of an UPDATE or DELETE rows event so that each before image holds only the
 * given columns (the target table's primary key), as a source with {@code binlog_row_image=MINIMAL}
 * would have written it; after images are kept whole. Pure.
 *
 * <p>Why: with the default {@code binlog_row_image=FULL} a before image repeats every column of the
 * row, yet a MariaDB server applying a rows event to an InnoDB table with a primary key finds the
 * row by that key alone ({@code Rows_log_event::find_row}: the primary-key columns of the image
 * position the cursor, {@code rnd_pos_by_record}) and never compares the other columns. Those bytes
 * cost the target the most where BINLOG statements cost more than the native replica: MariaDB
 * decodes a BINLOG statement's base64 one character at a time, and unpacks every image into a
 * record. Dropping them halves an UPDATE's bytes and leaves a DELETE with a few bytes per row.
 *
 * <p>The rewrite is all or nothing: the body comes back unchanged when a column to keep is not in
 * the before images (the source wrote a partial image) or when nothing would be dropped.
 */
public final class KeyOnlyBeforeImages {
    private KeyOnlyBeforeImages() {
    }

    /**
     * @param eventType the rows event's type code (UPDATE_ROWS or DELETE_ROWS, v1 or v2; other
     *     types come back unchanged)
     * @param keep the columns (0-based positions) every before image must keep
     * @return the rewritten body, or {@code body} itself
     */
    public static byte[] trim(int eventType, byte[] body, TableMap map, BitSet keep) {
        boolean update;
        boolean v2;
        switch (eventType) {
            case EventConverter.UPDATE_ROWS_V1 -> { update = true; v2 = false; }
            case EventConverter.DELETE_ROWS_V1 -> { update = false; v2 = false; }
            case EventConverter.UPDATE_ROWS_V2 -> { update = true; v2 = true; }
            case EventConverter.DELETE_ROWS_V2 -> { update = false; v2 = true; }
            default -> {
                return body;
            }
        }
        ByteReader r = new ByteReader(body);
        r.skip(8); // table id, flags
        if (v2) {
            int extra = r.u16(); // counts its own two bytes
            r.skip(extra - 2);
        }
        int width = (int) r.packed();
        if (width != map.columnCount() || keep.isEmpty() || keep.length() > width) {
            return body;
        }
        int bitmapStart = r.position();
        BitSet before = r.bitmap(width);
        BitSet after = update ? r.bitmap(width) : before;
        BitSet missing = (BitSet) keep.clone();
        missing.andNot(before);
        int presentBefore = before.cardinality();
        int kept = keep.cardinality();
        if (!missing.isEmpty() || presentBefore == kept) {
            return body;
        }
        int presentAfter = after.cardinality();
        int bitmapBytes = (width + 7) / 8;
        byte[] out = new byte[body.length];
        System.arraycopy(body, 0, out, 0, bitmapStart);
        for (int i = keep.nextSetBit(0); i >= 0; i = keep.nextSetBit(i + 1)) {
            out[bitmapStart + (i >> 3)] |= (byte) (1 << (i & 7));
        }
        int w = bitmapStart + bitmapBytes;
        if (update) {
            System.arraycopy(body, w, out, w, bitmapBytes); // the after images' columns, unchanged
            w += bitmapBytes;
        }
        int keptNullBytes = (kept + 7) / 8;
        while (r.hasRemaining()) {
            int nulls = r.position();
            r.skip((presentBefore + 7) / 8);
            int keptNulls = w; // zero already: no kept column is NULL until said so
            w += keptNullBytes;
            int j = 0;
            int k = 0;
            for (int i = before.nextSetBit(0); i >= 0; i = before.nextSetBit(i + 1)) {
                boolean isNull = r.bit(nulls, j++);
                if (keep.get(i)) {
                    if (isNull) {
                        out[keptNulls + (k >> 3)] |= (byte) (1 << (k & 7));
                    } else {
                        int from = r.position();
                        RowImageDecoder.skipCell(r, map, i);
                        System.arraycopy(body, from, out, w, r.position() - from);
                        w += r.position() - from;
                    }
                    k++;
                } else if (!isNull) {
                    RowImageDecoder.skipCell(r, map, i);
                }
            }
            if (update) {
                int from = r.position();
                RowImageDecoder.skip(r, map, after, presentAfter);
                System.arraycopy(body, from, out, w, r.position() - from);
                w += r.position() - from;
            }
        }
        return Arrays.copyOf(out, w);
    }
}
