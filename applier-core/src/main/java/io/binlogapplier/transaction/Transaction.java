package io.binlogapplier.transaction;

import java.util.List;

/**
 * A source transaction, or one part of a large one: transactions bigger than the assembler's part
 * size travel in several parts so that no single object holds a huge transaction. Parts of one
 * transaction share their {@link #head()}; only the last carries the {@link #end()}. Immutable.
 *
 * @param part 0 for the first part
 * @param end non-null exactly on the last part
 * @param implicitCommit some statement of this part commits by itself (DDL)
 * @param hasStatements some change of this part is a statement rather than rows
 */
public record Transaction(TransactionHead head, int part, List<Change> changes, long sizeBytes, TransactionEnd end,
                          boolean implicitCommit, boolean hasStatements) {

    public boolean lastPart() {
        return end != null;
    }

    /** The row changes of this part (an UPDATE's before and after image count once). */
    public int rowChanges() {
        int rows = 0;
        for (Change c : changes) {
            if (c instanceof Change.Rows r) {
                rows += r.rowCount();
            }
        }
        return rows;
    }

    /**
     * Some statement of this part commits by itself and may change a table's definition (see {@link
     * Change.Statement#changesTableDefinitions()}): table definitions read before it are stale after it.
     */
    public boolean changesTableDefinitions() {
        if (!implicitCommit) {
            return false;
        }
        for (Change c : changes) {
            if (c instanceof Change.Statement s && s.changesTableDefinitions()) {
                return true;
            }
        }
        return false;
    }

    /** The whole transaction is in this one object. */
    public boolean whole() {
        return part == 0 && end != null;
    }

    @Override
    public String toString() {
        return "transaction #" + head.sequence() + (head.gtid() == null ? "" : " " + head.gtid())
            + (whole() ? "" : " part " + part) + " at " + head.start() + " (" + changes.size() + " changes)";
    }
}
