package io.binlogapplier.pipeline;

import io.binlogapplier.apply.TableSchema;
import io.binlogapplier.apply.TableSchemaCache;
import io.binlogapplier.config.ApplyMode;
import io.binlogapplier.schedule.ContendedTables;
import io.binlogapplier.schedule.TransactionTraits;
import io.binlogapplier.apply.WriteSets;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.Transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;

/**
 * Decides a transaction's {@link TransactionTraits} from its content and the target's table
 * metadata (through the scheduler's own connection). Barriers, and nothing weaker: DDL,
 * statement-format DML, non-transactional changes rolled back on the source, transactions too
 * large for one part, non-transactional tables. A table without a usable key, a foreign key's
 * parent or child, a table with triggers: these are write-set keys (optimistic mode) or nothing
 * (conservative mode, where the source's commit groups already say what may run together). A table
 * that lock conflicts between units keep naming ({@link ContendedTables}) adds its table-level key.
 */
final class TraitsBuilder {
    /** Barrier causes, as metrics tag them. */
    static final String DDL = "ddl";
    static final String LARGE = "large_transaction";
    static final String ROLLED_BACK = "source_rollback";
    static final String STATEMENTS = "statement_dml";
    static final String NON_TRANSACTIONAL = "non_transactional";

    private final TableSchemaCache schemas;
    private final Connection connection;
    private final ApplyMode mode;
    private final ContendedTables contended;
    private java.util.function.BooleanSupplier keysWanted = () -> true;

    TraitsBuilder(TableSchemaCache schemas, Connection connection, ApplyMode mode, ContendedTables contended) {
        this.schemas = schemas;
        this.connection = connection;
        this.mode = mode;
        this.contended = contended;
    }

    /**
     * Optimistic mode: whether write sets are worth computing now (only while more than one worker
     * takes new units: never with {@code workers: 1}). Without one a transaction is {@code unkeyed}, and its row
     * values need not be decoded at all under the BINLOG method.
     */
    void keysWanted(java.util.function.BooleanSupplier wanted) {
        keysWanted = wanted;
    }

    TransactionTraits of(Transaction first) throws SQLException {
        if (first.implicitCommit()) {
            return TransactionTraits.barrier(DDL, true);
        }
        if (!first.whole()) {
            return TransactionTraits.barrier(LARGE, true);
        }
        if (first.end().rollback()) {
            return TransactionTraits.barrier(ROLLED_BACK, true);
        }
        if (first.hasStatements()) {
            return TransactionTraits.barrier(STATEMENTS, true);
        }
        Map<Change.Rows, TableSchema> tables = new java.util.IdentityHashMap<>();
        for (Change c : first.changes()) {
            if (c instanceof Change.Rows r) {
                TableSchema t = schemas.get(r.table().schema(), r.table().table(), connection);
                if (!t.transactional()) {
                    return TransactionTraits.barrier(NON_TRANSACTIONAL, true);
                }
                tables.put(r, t);
            }
        }
        if (mode != ApplyMode.OPTIMISTIC) {
            return TransactionTraits.ordinary(TransactionTraits.NO_KEYS);
        }
        if (!keysWanted.getAsBoolean()) {
            return TransactionTraits.unkeyedOrdinary();
        }
        long[] keys = WriteSets.of(first.changes(), tables::get);
        return TransactionTraits.ordinary(withContended(withKeylessParents(keys, tables.values()), tables.values()));
    }

    /** Adds the table-level key of each contended table the transaction changes. */
    private long[] withContended(long[] keys, Iterable<TableSchema> tables) {
        if (contended.keys().length == 0) {
            return keys;
        }
        long[] out = keys;
        for (TableSchema t : tables) {
            long k = WriteSets.tableKey(t.schema(), t.table());
            if (contended.contended(k)) {
                out = with(out, k);
            }
        }
        return out;
    }

    /** {@code keys} (sorted) with {@code k}, sorted. */
    private static long[] with(long[] keys, long k) {
        if (Arrays.binarySearch(keys, k) >= 0) {
            return keys;
        }
        long[] out = Arrays.copyOf(keys, keys.length + 1);
        out[out.length - 1] = k;
        Arrays.sort(out);
        return out;
    }

    /**
     * A child row names its parent's key in its write set; a parent without a lookup key has no row
     * keys, only its table-level key: then the child conflicts with that.
     */
    private long[] withKeylessParents(long[] keys, Iterable<TableSchema> tables) throws SQLException {
        long[] out = keys;
        for (TableSchema t : tables) {
            for (TableSchema.ForeignKey fk : t.foreignKeys()) {
                TableSchema parent = schemas.get(fk.parentSchema(), fk.parentTable(), connection);
                if (parent.lookupKey().isEmpty()) {
                    out = with(out, WriteSets.tableKey(parent.schema(), parent.table()));
                }
            }
        }
        return out;
    }
}
