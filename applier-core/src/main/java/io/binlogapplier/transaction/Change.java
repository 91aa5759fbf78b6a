package io.binlogapplier.transaction;

import io.binlogapplier.binlog.EventHeader;
import io.binlogapplier.binlog.QueryStatus;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;

import java.util.BitSet;
import java.util.List;

/** One change inside a source transaction: a rows event, or a statement. */
public sealed interface Change {

    long sizeBytes();

    /**
     * Rows of one table changed by one rows event. For UPDATE, {@code rows} alternates before and
     * after images; INSERT rows are after images, DELETE rows before images. Images are full-width
     * arrays indexed by column; {@code beforeColumns}/{@code afterColumns} say which are present.
     * {@code header} and {@code body} are the raw event, kept only for the BINLOG apply method.
     */
    record Rows(TableMap table, RowsKind kind, int flags, BitSet beforeColumns, BitSet afterColumns,
                List<Object[]> rows, long sizeBytes, EventHeader header, byte[] body) implements Change {

        /** The rows event ends a source statement (STMT_END_F). */
        public boolean statementEnd() {
            return (flags & io.binlogapplier.binlog.BinlogEvent.Rows.FLAG_STMT_END) != 0;
        }

        public int rowCount() {
            return kind == RowsKind.UPDATE ? rows.size() / 2 : rows.size();
        }

        public boolean foreignKeyChecks() {
            return (flags & io.binlogapplier.binlog.BinlogEvent.Rows.FLAG_NO_FOREIGN_KEY_CHECKS) == 0;
        }

        public boolean uniqueChecks() {
            return (flags & io.binlogapplier.binlog.BinlogEvent.Rows.FLAG_RELAXED_UNIQUE_CHECKS) == 0;
        }
    }

    /**
     * A statement to run as the source ran it: DDL, or statement-format DML.
     *
     * @param sql the statement bytes in the source session's client character set
     * @param implicitCommit the statement commits by itself (DDL): it cannot share a target transaction
     * @param timestampSeconds the source's statement time, for {@code SET TIMESTAMP}
     * @param insertId INSERT_ID for the statement, or null
     * @param lastInsertId LAST_INSERT_ID for the statement, or null
     * @param randSeeds RAND() seeds {seed1, seed2}, or null
     */
    record Statement(String database, byte[] sql, QueryStatus status, boolean implicitCommit, long timestampSeconds,
                     Long insertId, Long lastInsertId, long[] randSeeds, long sizeBytes) implements Change {
        /**
         * The statement commits by itself and is not one of those known to leave every table's definition
         * as it was (an account statement, table maintenance, FLUSH: {@link StatementKind#keepsTableDefinitions}).
         */
        public boolean changesTableDefinitions() {
            return implicitCommit && !StatementKind.keepsTableDefinitions(sql);
        }
    }
}
