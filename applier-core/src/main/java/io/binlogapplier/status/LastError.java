package io.binlogapplier.status;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.GtidGoal;
import io.binlogapplier.position.MariadbGtidPosition;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.TransactionRef;

import java.time.Instant;

/**
 * The error that last stopped the applier, as the target keeps it (like a native replica's
 * {@code Last_SQL_Errno}/{@code Last_SQL_Error}/{@code Last_SQL_Error_Timestamp}).
 *
 * @param exitCode the process exit code it ended with
 * @param name the exit code's name ({@code TARGET_DATA_CONFLICT})
 * @param transaction the failing source transaction; when the failure was no single transaction's,
 *                    the saved position at the time (GTID empty)
 * @param inTransaction whether {@code transaction} names the failing transaction
 * @param at when it failed
 */
public record LastError(int exitCode, String name, String message, TransactionRef transaction, boolean inTransaction,
                        Instant at) {

    /**
     * Whether {@code applied} (a position committed later) is past the failing transaction, so the
     * error no longer holds: by GTID when both have one of the same kind, else by file position.
     */
    public boolean passedBy(SourcePosition applied) {
        if (applied == null) {
            return false;
        }
        String gtid = transaction.gtid();
        String have = applied.gtids();
        if (inTransaction && !gtid.isEmpty() && !have.isEmpty()
            && MariadbGtidPosition.looksLikeMariadb(gtid) == MariadbGtidPosition.looksLikeMariadb(have)) {
            try {
                return GtidGoal.parse(gtid).reachedBy(have);
            } catch (IllegalArgumentException e) {
                // not comparable: by file position
            }
        }
        BinlogCoordinates at = applied.coordinates();
        BinlogCoordinates start = transaction.start();
        if (at.file().isEmpty() || start.file().isEmpty()) {
            return false;
        }
        return at.compareTo(start) > 0;
    }

    /** One line, as {@code status} prints it. */
    public String describe() {
        return "exit " + exitCode + " (" + name + ") at " + at + (inTransaction ? " in transaction " + transaction
            : " at position " + transaction.start()) + ": " + message;
    }
}
