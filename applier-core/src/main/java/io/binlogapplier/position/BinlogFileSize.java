package io.binlogapplier.position;

import java.util.List;

/**
 * One line of the source's SHOW BINARY LOGS: a binlog file and its size in bytes.
 *
 * @param name the file name, e.g. {@code mysql-bin.000042}
 * @param size its size in bytes (for the file being written: its size when listed)
 */
public record BinlogFileSize(String name, long size) {

    /**
     * Bytes of binlog from {@code at} to {@code end}, across files by the sizes in {@code files}
     * (oldest first); 0 when {@code at} is at or past {@code end}; -1 when unknown (a position is
     * missing, or a file between them is not in {@code files}).
     */
    public static long bytesBetween(BinlogCoordinates at, BinlogCoordinates end, List<BinlogFileSize> files) {
        if (at == null || end == null || at.file().isEmpty() || end.file().isEmpty()) {
            return -1;
        }
        if (at.atOrAfter(end)) {
            return 0;
        }
        if (at.file().equals(end.file())) {
            return Math.max(0, end.offset() - at.offset());
        }
        if (files == null) {
            return -1;
        }
        long bytes = 0;
        boolean counting = false;
        for (BinlogFileSize f : files) {
            if (f.name().equals(at.file())) {
                counting = true;
                bytes += Math.max(0, f.size() - at.offset());
            } else if (f.name().equals(end.file())) {
                return counting ? bytes + end.offset() : -1;
            } else if (counting) {
                bytes += f.size();
            }
        }
        return -1;
    }
}
