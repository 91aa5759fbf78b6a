package io.binlogapplier.binlog;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Rewrites the body of an UPDATE or DELETE rows event with lean row images, as a source with
 * {@code binlog_row_image=MINIMAL} would have written it: each before image holds only the given
 * columns (the target table's primary key), and each UPDATE's after images only the columns whose
 * value changed in some row of the event (and those the caller says to keep). Pure.
 *
 * <p>Why: with the default {@code binlog_row_image=FULL} a before image repeats every column of the
 * row and an after image every column again, changed or not. A MariaDB server applying a rows event
 * to an InnoDB table with a primary key finds the row by that key alone ({@code
 * Rows_log_event::find_row}: the primary-key columns of the image position the cursor, {@code
 * rnd_pos_by_record}, which reads the whole row since the table is locked for writing), then unpacks
 * the after image over the row it read, so a column the after image leaves out keeps the value it
 * has, which is the value the source's after image would have given it. Those bytes cost the target
 * the most where BINLOG statements cost more than the native replica: MariaDB decodes a BINLOG
 * statement's base64 one character at a time, and unpacks every image into a record.
 *
 * <p>A column is unchanged when every row's before and after cell are the same bytes (or both
 * NULL); a column the after images hold but the before images do not is kept. Before images are
 * rewritten all or nothing: left whole when a column to keep is not in them (the source wrote a
 * partial image) or when nothing would be dropped. The body comes back itself when no column is
 * dropped from either image.
 */
public final class LeanRowImages {
    private LeanRowImages() {
    }

    /**
     * The rewritten body, and how many bytes of before and of after images were left out.
     *
     * @param body the rewritten body, or the body given when no column was dropped
     */
    public record Result(byte[] body, int beforeBytesDropped, int afterBytesDropped) {
    }

    /**
     * @param eventType the rows event's type code (UPDATE_ROWS or DELETE_ROWS, v1 or v2; other
     *     types come back unchanged)
     * @param keepBefore the columns (0-based positions) every before image must keep; null to leave
     *     before images whole
     * @param keepAfter the columns every UPDATE after image must keep whether changed or not; null to
     *     leave after images whole
     */
    public static Result trim(int eventType, byte[] body, TableMap map, BitSet keepBefore, BitSet keepAfter) {
        boolean update;
        boolean v2;
        switch (eventType) {
            case EventConverter.UPDATE_ROWS_V1 -> { update = true; v2 = false; }
            case EventConverter.DELETE_ROWS_V1 -> { update = false; v2 = false; }
            case EventConverter.UPDATE_ROWS_V2 -> { update = true; v2 = true; }
            case EventConverter.DELETE_ROWS_V2 -> { update = false; v2 = true; }
            default -> {
                return new Result(body, 0, 0);
            }
        }
        ByteReader r = new ByteReader(body);
        r.skip(8); // table id, flags
        if (v2) {
            int extra = r.u16(); // counts its own two bytes
            r.skip(extra - 2);
        }
        int width = (int) r.packed();
        if (width != map.columnCount()) {
            return new Result(body, 0, 0);
        }
        int bitmapStart = r.position();
        BitSet before = r.bitmap(width);
        BitSet after = update ? r.bitmap(width) : null;
        int rowsStart = r.position();

        BitSet leanBefore = leanBefore(before, keepBefore, width);
        BitSet leanAfter = update && keepAfter != null ? leanAfter(body, rowsStart, map, before, after, keepAfter) : null;
        if (leanBefore == null && leanAfter == null) {
            return new Result(body, 0, 0);
        }

        byte[] out = new byte[body.length]; // lean images are never longer than the source's
        System.arraycopy(body, 0, out, 0, bitmapStart);
        int w = writeBitmap(out, bitmapStart, leanBefore != null ? leanBefore : before, width);
        if (update) {
            w = writeBitmap(out, w, leanAfter != null ? leanAfter : after, width);
        }
        int presentBefore = before.cardinality();
        int presentAfter = update ? after.cardinality() : 0;
        int keptBefore = leanBefore != null ? leanBefore.cardinality() : presentBefore;
        int keptAfter = leanAfter != null ? leanAfter.cardinality() : presentAfter;
        int beforeDropped = 0;
        int afterDropped = 0;
        while (r.hasRemaining()) {
            int from = r.position();
            int to = w;
            w = copyImage(r, body, map, before, presentBefore, leanBefore, keptBefore, out, w);
            beforeDropped += (r.position() - from) - (w - to);
            if (update) {
                from = r.position();
                to = w;
                w = copyImage(r, body, map, after, presentAfter, leanAfter, keptAfter, out, w);
                afterDropped += (r.position() - from) - (w - to);
            }
        }
        return new Result(Arrays.copyOf(out, w), beforeDropped, afterDropped);
    }

    /** Writes {@code set} as a row-event bitmap of {@code width} bits at {@code at} (zeros there); returns its end. */
    private static int writeBitmap(byte[] out, int at, BitSet set, int width) {
        for (int i = set.nextSetBit(0); i >= 0; i = set.nextSetBit(i + 1)) {
            out[at + (i >> 3)] |= (byte) (1 << (i & 7));
        }
        return at + (width + 7) / 8;
    }

    /**
     * Copies the image at the reader's position to {@code out} at {@code w}, with only the columns
     * of {@code keep} (a subset of {@code present}, {@code keepCount} of them; null: all of them);
     * returns the end written.
     */
    private static int copyImage(ByteReader r, byte[] body, TableMap map, BitSet present, int presentCount,
                                 BitSet keep, int keepCount, byte[] out, int w) {
        int from = r.position();
        if (keep == null) {
            RowImageDecoder.skip(r, map, present, presentCount);
            System.arraycopy(body, from, out, w, r.position() - from);
            return w + r.position() - from;
        }
        int nulls = r.position();
        r.skip((presentCount + 7) / 8);
        int keptNulls = w; // zeros already: no kept column is NULL until said so
        w += (keepCount + 7) / 8;
        int j = 0;
        int k = 0;
        for (int i = present.nextSetBit(0); i >= 0; i = present.nextSetBit(i + 1)) {
            boolean isNull = r.bit(nulls, j++);
            if (keep.get(i)) {
                if (isNull) {
                    out[keptNulls + (k >> 3)] |= (byte) (1 << (k & 7));
                } else {
                    int cell = r.position();
                    RowImageDecoder.skipCell(r, map, i);
                    System.arraycopy(body, cell, out, w, r.position() - cell);
                    w += r.position() - cell;
                }
                k++;
            } else if (!isNull) {
                RowImageDecoder.skipCell(r, map, i);
            }
        }
        return w;
    }

    /** The before images' lean columns, or null when they stay whole. */
    private static BitSet leanBefore(BitSet before, BitSet keep, int width) {
        if (keep == null || keep.isEmpty() || keep.length() > width) {
            return null;
        }
        BitSet missing = (BitSet) keep.clone();
        missing.andNot(before);
        if (!missing.isEmpty() || before.cardinality() == keep.cardinality()) {
            return null;
        }
        return keep;
    }

    /**
     * The after images' lean columns: those the caller keeps, those the before images lack, and
     * those whose bytes differ between some row's before and after image; null when that is all of
     * them. Never empty: an event whose rows change nothing the images show keeps the first column.
     */
    private static BitSet leanAfter(byte[] body, int rowsStart, TableMap map, BitSet before, BitSet after,
                                    BitSet keepAfter) {
        int width = map.columnCount();
        BitSet changed = (BitSet) after.clone();
        changed.andNot(before);
        BitSet forced = (BitSet) keepAfter.clone();
        forced.and(after);
        changed.or(forced);
        if (changed.equals(after)) {
            return null;
        }
        int presentBefore = before.cardinality();
        int presentAfter = after.cardinality();
        int[] start = new int[width];
        int[] end = new int[width]; // start == end == -1: NULL
        ByteReader r = new ByteReader(body, rowsStart, body.length);
        while (r.hasRemaining()) {
            int nulls = r.position();
            r.skip((presentBefore + 7) / 8);
            int j = 0;
            for (int i = before.nextSetBit(0); i >= 0; i = before.nextSetBit(i + 1)) {
                if (r.bit(nulls, j++)) {
                    start[i] = -1;
                    end[i] = -1;
                } else {
                    start[i] = r.position();
                    RowImageDecoder.skipCell(r, map, i);
                    end[i] = r.position();
                }
            }
            nulls = r.position();
            r.skip((presentAfter + 7) / 8);
            j = 0;
            for (int i = after.nextSetBit(0); i >= 0; i = after.nextSetBit(i + 1)) {
                boolean isNull = r.bit(nulls, j++);
                int from = r.position();
                if (!isNull) {
                    RowImageDecoder.skipCell(r, map, i);
                }
                if (changed.get(i)) {
                    continue;
                }
                boolean same = isNull
                    ? start[i] == -1
                    : start[i] != -1 && Arrays.equals(body, start[i], end[i], body, from, r.position());
                if (!same) {
                    changed.set(i);
                }
            }
            if (changed.equals(after)) {
                return null;
            }
        }
        if (changed.isEmpty()) {
            changed.set(after.nextSetBit(0));
            if (changed.equals(after)) {
                return null;
            }
        }
        return changed;
    }
}
