package io.binlogapplier.pipeline;

import io.binlogapplier.apply.TableSchema;
import io.binlogapplier.apply.TableSchemaCache;
import io.binlogapplier.config.ApplyMode;
import io.binlogapplier.schedule.TransactionTraits;
import io.binlogapplier.schedule.WriteSets;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.Transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides a transaction's {@link TransactionTraits} from its content and the target's table
 * metadata (through the scheduler's own connection). Barriers: DDL, statement-format DML, changes
 * rolled back on the source, transactions too large for one part, non-transactional tables, and
 * tables without a primary or NOT NULL unique key.
 */
final class TraitsBuilder {
    private final TableSchemaCache schemas;
    private final Connection connection;
    private final ApplyMode mode;

    TraitsBuilder(TableSchemaCache schemas, Connection connection, ApplyMode mode) {
        this.schemas = schemas;
        this.connection = connection;
        this.mode = mode;
    }

    TransactionTraits of(Transaction first) throws SQLException {
        if (first.implicitCommit()) {
            return TransactionTraits.barrier("DDL", true);
        }
        if (!first.whole()) {
            return TransactionTraits.barrier("large transaction", true);
        }
        if (first.end().rollback()) {
            return TransactionTraits.barrier("non-transactional changes rolled back on the source", true);
        }
        if (first.hasStatements()) {
            return TransactionTraits.barrier("statement-format DML", true);
        }
        Map<Change.Rows, TableSchema> tables = new java.util.IdentityHashMap<>();
        for (Change c : first.changes()) {
            if (c instanceof Change.Rows r) {
                TableSchema t = schemas.get(r.table().schema(), r.table().table(), connection);
                if (!t.transactional()) {
                    return TransactionTraits.barrier("non-transactional table " + t + " (" + t.engine() + ")", true);
                }
                if (t.lookupKey().isEmpty()) {
                    return TransactionTraits.barrier("table " + t + " has no primary or NOT NULL unique key", false);
                }
                tables.put(r, t);
            }
        }
        if (mode != ApplyMode.OPTIMISTIC) {
            return TransactionTraits.ordinary(TransactionTraits.NO_KEYS);
        }
        return TransactionTraits.ordinary(WriteSets.of(first.changes(), tables::get));
    }
}
