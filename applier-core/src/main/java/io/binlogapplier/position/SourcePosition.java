package io.binlogapplier.position;

import java.util.Objects;

/**
 * Where the applier is in the source's binlog: the file coordinates just past the last applied
 * transaction, the GTID set applied so far (MariaDB {@code 0-1-100} list, MySQL uuid set, or empty
 * when the source has no GTIDs), and which of the two a restart reconnects by.
 */
public record SourcePosition(BinlogCoordinates coordinates, String gtids, ResumeBy resumeBy) {

    /** How a restart asks the source for its stream. */
    public enum ResumeBy { FILE, GTID }

    public SourcePosition {
        Objects.requireNonNull(coordinates, "coordinates");
        Objects.requireNonNull(gtids, "gtids");
        Objects.requireNonNull(resumeBy, "resumeBy");
    }

    @Override
    public String toString() {
        String g = gtids.isEmpty() ? "" : "gtid " + gtids;
        // a GTID position set by hand has no file coordinates yet (the first connect finds them)
        String at = coordinates.file().isEmpty() ? g : g.isEmpty() ? coordinates.toString() : coordinates + " " + g;
        return at + (resumeBy == ResumeBy.GTID ? " (resume by GTID)" : "");
    }
}
