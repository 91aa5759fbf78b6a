package io.binlogapplier.position;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A place in the source's binary log: file name and byte offset, e.g. {@code mysql-bin.000042:1337}.
 * Coordinates order by the file's numeric suffix (the server numbers its binlog files), then offset.
 */
public record BinlogCoordinates(String file, long offset) implements Comparable<BinlogCoordinates> {
    private static final Pattern FILE_POS = Pattern.compile("^(.+):(\\d+)$");
    private static final Pattern NUMBERED = Pattern.compile("^(.*)\\.(\\d+)$");

    public BinlogCoordinates {
        Objects.requireNonNull(file, "file");
        if (offset < 0) {
            throw new IllegalArgumentException("negative binlog offset " + offset);
        }
    }

    /** Parses {@code file:offset}; returns null when the text is not of that form. */
    public static BinlogCoordinates parseOrNull(String text) {
        Matcher m = FILE_POS.matcher(text.trim());
        if (!m.matches() || m.group(1).contains(":")) {
            return null;
        }
        try {
            return new BinlogCoordinates(m.group(1), Long.parseLong(m.group(2)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public int compareTo(BinlogCoordinates other) {
        int byFile = compareFiles(file, other.file);
        return byFile != 0 ? byFile : Long.compare(offset, other.offset);
    }

    /** True when this place is at or after {@code other}. */
    public boolean atOrAfter(BinlogCoordinates other) {
        return compareTo(other) >= 0;
    }

    static int compareFiles(String a, String b) {
        if (a.equals(b)) {
            return 0;
        }
        Matcher ma = NUMBERED.matcher(a);
        Matcher mb = NUMBERED.matcher(b);
        if (ma.matches() && mb.matches() && ma.group(1).equals(mb.group(1))) {
            return Long.compare(Long.parseLong(ma.group(2)), Long.parseLong(mb.group(2)));
        }
        return a.compareTo(b);
    }

    @Override
    public String toString() {
        return file + ":" + offset;
    }
}
