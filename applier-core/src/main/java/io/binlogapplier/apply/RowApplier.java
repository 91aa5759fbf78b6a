package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.RowsKind;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import io.binlogapplier.transaction.Change;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies row changes to one target connection as prepared SQL (see {@link RowSql}). Owned by one
 * worker thread; keeps that connection's prepared statements and session flags.
 */
final class RowApplier implements AutoCloseable {
    /** Most rows in one multi-row INSERT. */
    static final int MAX_ROWS_PER_INSERT = 128;
    /** Most bytes of row data in one multi-row INSERT (less where the target's max_allowed_packet is small). */
    static final long MAX_BYTES_PER_INSERT = 4L << 20;
    private static final int MAX_PLACEHOLDERS = 65_535;

    private final Connection connection;
    private final TableSchemaCache schemas;
    /** Most row changes (and event bytes) buffered as net effects before they are applied. */
    static final long MAX_BUFFERED_CHANGES = 20_000;
    static final long MAX_BUFFERED_BYTES = 8L << 20;

    /**
     * Prepared statements all workers together keep open ({@link StatementCache}): half of MariaDB's
     * and MySQL's default {@code max_prepared_stmt_count} (16,382, for every session of the server),
     * shared out among the workers, at most 512 and at least 32 each.
     */
    static final int PREPARED_STATEMENTS_OF_ALL_WORKERS = 8192;

    /** Most prepared statements each of {@code workers} workers keeps open. */
    static int maxPreparedStatements(int workers) {
        return Math.max(32, Math.min(512, PREPARED_STATEMENTS_OF_ALL_WORKERS / Math.max(1, workers)));
    }

    private final long maxStatementBytes;
    private final Map<String, TablePlan> plans = new HashMap<>();
    private final StatementCache<PlanShape, PreparedStatement> prepared;
    private final Map<TablePlan, Buffered> buffered = new LinkedHashMap<>();
    private long bufferedChanges;
    private long bufferedBytes;
    private long netRows;
    private long netStatements;
    private long orderedRows;
    /** Row changes to tables foreign keys link, held back to go several per statement ({@link LinkedChanges}). */
    private final Map<String, Held> linked = new LinkedHashMap<>();
    private long[] keys = new long[16];
    private long linkedRows;
    private long linkedStatements;
    private Boolean foreignKeyChecks;
    private Boolean uniqueChecks;
    /** Row statements written as text and sent several per round trip ({@link StatementBatch}). */
    private final StatementBatch batch;
    /** The tables the batch holds statements of. */
    private final java.util.Set<TableSchema> batchTables = new java.util.HashSet<>();
    private boolean batching = true;

    /**
     * Most rows of a statement sent as text in a batch; larger multi-row statements go prepared (on a
     * 300k-row transaction, as text they cost the target 15% more CPU and the applier 10%).
     */
    static final int MAX_ROWS_PER_TEXT_STATEMENT = 4;

    /** Most row statements sent in one round trip. */
    static final int MAX_STATEMENTS_PER_BATCH = 500;

    /**
     * @param maxPrepared most prepared statements kept open on the connection
     * @param maxBatchChars characters of row statements sent in one round trip
     */
    RowApplier(Connection connection, TableSchemaCache schemas, int maxPrepared, long maxAllowedPacket) {
        this.connection = connection;
        this.schemas = schemas;
        this.prepared = new StatementCache<>(maxPrepared, RowApplier::closeQuietly);
        this.batch = new StatementBatch(connection, MAX_STATEMENTS_PER_BATCH, maxBatchChars(maxAllowedPacket));
        this.maxStatementBytes = maxStatementBytes(maxAllowedPacket);
    }

    /**
     * Bytes of row data in one statement that gathers several rows (a net effect's INSERT, a keyless
     * table's count of copies): half the target's max_allowed_packet, at most
     * {@link #MAX_BYTES_PER_INSERT}. A source event holds a few rows, the net effect of a unit many: a
     * statement of them must still fit in one packet. One row larger than that goes alone.
     */
    static long maxStatementBytes(long maxAllowedPacket) {
        return Math.max(16 << 10, Math.min(MAX_BYTES_PER_INSERT, maxAllowedPacket / 2));
    }

    /**
     * Characters of row statements per round trip for a server with this max_allowed_packet: a
     * quarter of it, between 64 KB and 1 MB (literals are text, raw bytes take two characters each).
     */
    static int maxBatchChars(long maxAllowedPacket) {
        return (int) Math.max(64 << 10, Math.min(1 << 20, maxAllowedPacket / 4));
    }

    /**
     * Off: every row statement is prepared and sent alone, which names the row when one fails (a
     * unit applied again to find the row at fault); on (the default): several go per round trip.
     */
    void batching(boolean on) {
        batching = on;
    }

    /** Sends the row statements written so far; call before anything else goes to the connection. */
    void send() throws SQLException {
        batch.send(this::failure);
        batchTables.clear();
    }

    /**
     * Before rows of {@code table} go another way (a BINLOG statement): writes out its buffered net
     * effect, and sends the batch if it holds statements of that table, or {@code always}.
     */
    void sendFor(TableSchema table, boolean always) throws SQLException {
        for (TablePlan plan : buffered.keySet()) {
            if (plan.schema == table) {
                flush(plan);
                break;
            }
        }
        if (always) {
            flushLinked();
        }
        if (always || batchTables.contains(table)) {
            send();
        }
    }

    /**
     * Applies one rows event, or (net effect) buffers it until {@link #flush}.
     *
     * @param where names the transaction in error messages
     * @param idempotent the unit may have been applied before (replay after a crash): for
     *     non-transactional tables INSERT becomes REPLACE and a missing row is not an error
     * @param netEffect the event may join its table's net effect (see {@link NetEffect}) when the
     *     table allows it; otherwise, or when the table does not, it is applied now, in order
     * @param beforeOrdered runs first when the event is applied now (what must precede it in order)
     */
    void apply(Change.Rows rows, String where, boolean idempotent, boolean netEffect, SqlAction beforeOrdered)
        throws SQLException {
        TableMap map = rows.table();
        TablePlan plan = plan(map);
        if (netEffect && !idempotent && plan.netEffectFits(rows)) {
            buffer(plan, rows, where);
            return;
        }
        beforeOrdered.run();
        if (netEffect && !idempotent && plan.regroupable(rows)) {
            hold(plan, rows, where);
            return;
        }
        if (plan.schema.linkedByForeignKeys()) {
            flushLinked(plan.component);
        }
        flush(plan);
        sessionFlags(rows.foreignKeyChecks(), rows.uniqueChecks());
        // Only a non-transactional table can hold changes from before a crash; InnoDB rolled them back.
        boolean replay = idempotent && !plan.schema.transactional();
        switch (rows.kind()) {
            case INSERT -> insert(plan, rows, where, replay);
            case UPDATE -> updateOrDelete(plan, rows.beforeColumns(), rows.afterColumns(), rows.rows(), where, replay,
                true);
            case DELETE -> updateOrDelete(plan, rows.beforeColumns(), rows.afterColumns(), rows.rows(), where, replay,
                false);
        }
        orderedRows += rows.rowCount();
    }

    /** Holds a rows event of a table foreign keys link until {@link #flushLinked} (see {@link LinkedChanges}). */
    private void hold(TablePlan plan, Change.Rows rows, String where) {
        Held h = linked.computeIfAbsent(plan.component, k -> new Held(where));
        LinkedChanges<TablePlan> held = h.changes;
        int room = 2 * plan.keys.count();
        if (keys.length < room) {
            keys = new long[room];
        }
        List<Object[]> images = rows.rows();
        BitSet before = rows.beforeColumns();
        BitSet after = rows.afterColumns();
        for (int r = 0; r < images.size(); r += rows.kind() == RowsKind.UPDATE ? 2 : 1) {
            Object[] b = rows.kind() == RowsKind.INSERT ? null : images.get(r);
            Object[] a = rows.kind() == RowsKind.INSERT ? images.get(r)
                : rows.kind() == RowsKind.UPDATE ? images.get(r + 1) : null;
            int writes = 0;
            if (b != null) {
                writes = plan.keys.addUnique(b, before, keys, writes);
            }
            if (a != null) {
                writes = plan.keys.addUnique(a, after, keys, writes);
            }
            int end = writes;
            if (b != null) {
                end = plan.keys.addReferenced(b, before, keys, end);
            }
            if (a != null) {
                end = plan.keys.addReferenced(a, after, keys, end);
            }
            held.add(new LinkedChanges.Row<>(plan, rows.kind(), b == null ? null : before, a == null ? null : after, b, a),
                keys, writes, end - writes);
        }
        h.bytes += rows.sizeBytes();
    }

    /**
     * The changes held of one group of tables foreign keys link, their event bytes, and the
     * transaction of the first.
     */
    private static final class Held {
        final LinkedChanges<TablePlan> changes = new LinkedChanges<>();
        final String where;
        long bytes;

        Held(String where) {
            this.where = where;
        }
    }

    /**
     * A group's updates: where the lookup key is the table's only unique key, those that keep their
     * row's key and change some value go as multi-row {@code INSERT … ON DUPLICATE KEY UPDATE}s, which
     * must find every row and change it (as a net effect's updates in place; held updates have whole
     * after images, {@link TablePlan#regroupable}); the rest one by one.
     *
     * @param images the group's before and after images, alternating
     */
    private void updateLinked(TablePlan plan, LinkedChanges.Group<TablePlan> g, List<Object[]> images, String where)
        throws SQLException {
        List<Object[]> inPlace = new ArrayList<>();
        List<Object[]> oneByOne = new ArrayList<>();
        for (int r = 0; r < images.size(); r += 2) {
            Object[] before = images.get(r);
            Object[] after = images.get(r + 1);
            if (plan.upsert && sameKey(plan, before, after)
                && !java.util.Arrays.deepEquals(before, after)) {
                inPlace.add(after);
            } else {
                oneByOne.add(before);
                oneByOne.add(after);
            }
        }
        if (!inPlace.isEmpty()) {
            netStatements += insert(plan, g.after(), inPlace, where, Form.UPSERT);
        }
        if (!oneByOne.isEmpty()) {
            updateOrDelete(plan, g.before(), g.after(), oneByOne, where, false, true);
            netStatements += oneByOne.size() / 2;
        }
    }

    /** The two images hold the same lookup key. */
    private static boolean sameKey(TablePlan plan, Object[] a, Object[] b) {
        for (int c : plan.lookupColumns) {
            if (!java.util.Objects.deepEquals(a[c], b[c])) {
                return false;
            }
        }
        return true;
    }

    /** Applies every change held of tables foreign keys link. */
    private void flushLinked() throws SQLException {
        for (String component : new ArrayList<>(linked.keySet())) {
            flushLinked(component);
        }
    }

    /**
     * Applies the held changes of one group of tables foreign keys link ({@link TablePlan#component};
     * null: of every group): layer by layer, each table's inserts of a layer as multi-row INSERTs, its
     * deletes as DELETEs of a list of keys, its updates in place as multi-row upserts where it has
     * one unique key ({@link #updateLinked}), else one by one.
     */
    private void flushLinked(String component) throws SQLException {
        if (component == null) {
            flushLinked();
            return;
        }
        Held held = linked.remove(component);
        if (held == null) {
            return;
        }
        LinkedChanges<TablePlan> changes = held.changes;
        String where = "the changes to tables linked by foreign keys from " + held.where + " onwards";
        sessionFlags(true, true);
        long netBefore = netStatements; // the statement helpers count into netStatements
        for (LinkedChanges.Group<TablePlan> g : changes.groups()) {
            TablePlan plan = g.table();
            List<Object[]> images = new ArrayList<>(g.kind() == RowsKind.UPDATE ? 2 * g.rows().size() : g.rows().size());
            for (LinkedChanges.Row<TablePlan> r : g.rows()) {
                if (r.beforeImage() != null) {
                    images.add(r.beforeImage());
                }
                if (r.afterImage() != null) {
                    images.add(r.afterImage());
                }
            }
            switch (g.kind()) {
                case INSERT -> netStatements += insert(plan, g.after(), images, where, Form.INSERT);
                case DELETE -> deleteByKeys(plan, images, where);
                case UPDATE -> updateLinked(plan, g, images, where);
            }
        }
        linkedStatements += netStatements - netBefore;
        netStatements = netBefore;
        linkedRows += changes.rows();
    }

    /** Work that may fail with an SQLException. */
    interface SqlAction {
        SqlAction NONE = () -> { };

        void run() throws SQLException;
    }

    private void buffer(TablePlan plan, Change.Rows rows, String where) {
        Buffered found = buffered.get(plan);
        if (found == null) {
            found = plan.lookupColumns != null ? new Buffered(new NetEffect(plan.lookupColumns), null, where)
                : new Buffered(null, new KeylessNetEffect(plan.keylessColumns), where);
            buffered.put(plan, found);
        }
        Buffered b = found;
        List<Object[]> images = rows.rows();
        if (b.keyless != null) {
            switch (rows.kind()) {
                case INSERT -> images.forEach(image -> b.keyless.add(RowsKind.INSERT, null, image, rows.afterColumns()));
                case DELETE -> images.forEach(image -> b.keyless.add(RowsKind.DELETE, image, null, null));
                case UPDATE -> {
                    for (int r = 0; r < images.size(); r += 2) {
                        b.keyless.add(RowsKind.UPDATE, images.get(r), images.get(r + 1), rows.afterColumns());
                    }
                }
            }
            bufferedChanges += rows.rowCount();
            bufferedBytes += rows.sizeBytes();
            return;
        }
        try {
            switch (rows.kind()) {
                case INSERT -> {
                    for (Object[] image : images) {
                        b.effect.add(RowsKind.INSERT, null, image, rows.afterColumns());
                    }
                }
                case DELETE -> {
                    for (Object[] image : images) {
                        b.effect.add(RowsKind.DELETE, image, null, null);
                    }
                }
                case UPDATE -> {
                    for (int r = 0; r < images.size(); r += 2) {
                        b.effect.add(RowsKind.UPDATE, images.get(r), images.get(r + 1), rows.afterColumns());
                    }
                }
            }
        } catch (NetEffect.Contradiction e) {
            throw new ApplierException(ExitCode.TARGET_DATA_CONFLICT, e.getMessage() + " in " + plan.schema + " ("
                + where + "): the target's key of that table is not a key of the source's rows; make the table's"
                + " definitions match and restart");
        }
        bufferedChanges += rows.rowCount();
        bufferedBytes += rows.sizeBytes();
    }

    /** True when the buffered net effects grew past their bounds: the caller should {@link #flush} them. */
    boolean bufferFull() {
        long changes = bufferedChanges;
        long bytes = bufferedBytes;
        for (Held h : linked.values()) {
            changes += h.changes.rows();
            bytes += h.bytes;
        }
        return changes >= MAX_BUFFERED_CHANGES || bytes >= MAX_BUFFERED_BYTES;
    }

    /** Applies every buffered net effect: call before the position update and before anything ordered. */
    void flush() throws SQLException {
        for (Map.Entry<TablePlan, Buffered> e : buffered.entrySet()) {
            apply(e.getKey(), e.getValue());
        }
        buffered.clear();
        bufferedChanges = 0;
        bufferedBytes = 0;
        flushLinked();
        send();
    }

    private void flush(TablePlan plan) throws SQLException {
        Buffered b = buffered.remove(plan);
        if (b != null) {
            apply(plan, b);
        }
    }

    /** Drops what is buffered (the unit is being rolled back) and the unit's counts. */
    void discard() {
        batch.discard();
        batchTables.clear();
        buffered.clear();
        bufferedChanges = 0;
        bufferedBytes = 0;
        linked.clear();
        netRows = 0;
        netStatements = 0;
        orderedRows = 0;
        linkedRows = 0;
        linkedStatements = 0;
    }

    /**
     * The unit's counts, as {@code {netRows, netStatements, orderedRows, linkedRows,
     * linkedStatements}}; resets them.
     */
    long[] takeCounts() {
        long[] out = {netRows, netStatements, orderedRows, linkedRows, linkedStatements};
        netRows = 0;
        netStatements = 0;
        orderedRows = 0;
        linkedRows = 0;
        linkedStatements = 0;
        return out;
    }

    /**
     * Deletes every row that existed, then inserts every final row (see {@link NetEffect}); where the
     * lookup key is the table's only unique key, a row that existed and still does is updated in
     * place instead (one statement, and no secondary index entry removed and written back).
     */
    private void apply(TablePlan plan, Buffered b) throws SQLException {
        String where = "the net effect of changes to " + plan.schema + " from " + b.where + " onwards";
        if (b.keyless != null) {
            applyKeyless(plan, b.keyless, where);
            return;
        }
        if (plan.upsert) {
            NetEffect.Split split = b.effect.split();
            deleteByKeys(plan, split.removed(), where);
            insertAll(plan, split.replaced(), where, Form.UPSERT);
            insertAll(plan, split.added(), where, Form.INSERT);
        } else {
            deleteByKeys(plan, b.effect.deletes(), where);
            insertAll(plan, b.effect.inserts(), where, Form.INSERT);
        }
        advanceAutoIncrement(plan, b.effect, where);
        netRows += b.effect.changes();
    }

    /**
     * A row the unit inserted and deleted again is left out of the net effect, but its insert moved
     * the source's AUTO_INCREMENT counter (a queue table: a job added and taken within one unit). So
     * that the target's counter follows, the one with the largest value of that column, when no final
     * row's value passes it, is inserted and deleted again: the counter moves past it, the rows do not
     * change. (Should it collide with a final row's other unique key, the unit is applied again in
     * order, as after any conflict in a net effect.)
     */
    private void advanceAutoIncrement(TablePlan plan, NetEffect effect, String where) throws SQLException {
        int col = plan.autoIncrementColumn;
        if (col < 0) {
            return;
        }
        NetEffect.Row top = null;
        java.math.BigInteger topValue = null;
        for (NetEffect.Row r : effect.transients()) {
            java.math.BigInteger v = integer(plan, r.image(), col);
            if (v != null && (topValue == null || v.compareTo(topValue) > 0)) {
                top = r;
                topValue = v;
            }
        }
        if (top == null) {
            return;
        }
        for (NetEffect.Row r : effect.inserts()) {
            java.math.BigInteger v = integer(plan, r.image(), col);
            if (v != null && v.compareTo(topValue) >= 0) {
                return; // a final row moves the counter as far
            }
        }
        netStatements += insert(plan, top.columns(), List.<Object[]>of(top.image()), where, Form.INSERT);
        deleteByKeys(plan, List.<Object[]>of(top.image()), where);
    }

    /** The integer in column {@code col} as the column holds it (unsigned as ValueBinder binds it); null when none. */
    private static java.math.BigInteger integer(TablePlan plan, Object[] image, int col) {
        if (!(image[col] instanceof Long l) || !io.binlogapplier.binlog.BinlogType.isInteger(plan.types[col])) {
            return null;
        }
        if (!plan.unsigned[col]) {
            return java.math.BigInteger.valueOf(l);
        }
        long u = ValueBinder.unsignedValue(l, plan.types[col]);
        return u < 0 ? new java.math.BigInteger(Long.toUnsignedString(u)) : java.math.BigInteger.valueOf(u);
    }

    /** Deletes the rows with the lookup keys of {@code images}, which must all exist. */
    private void deleteByKeys(TablePlan plan, List<Object[]> list, String where) throws SQLException {
        Object[][] images = rowArray(list);
        int[] keyCols = plan.lookupColumns;
        int maxRows = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, MAX_PLACEHOLDERS / keyCols.length));
        int i = 0;
        while (i < images.length) {
            int chunk = Integer.highestOneBit(Math.min(maxRows, images.length - i));
            int from = i;
            java.util.function.Supplier<String> sql = () -> RowSql.deleteByKeys(plan.schema, plan.columns(keyCols), chunk);
            StatementBatch.Check check = found -> {
                if (found != chunk) {
                    throw dataDiffers("DELETE of " + chunk + " rows by key found " + found + " in " + plan.schema, where);
                }
            };
            if (batchable(images, from, from + chunk, keyCols)) {
                Text t = text(plan, Form.DELETE_BY_KEYS, null, null, chunk, sql, where);
                for (int r = from; r < from + chunk; r++) {
                    t.all(images[r], keyCols);
                }
                t.end(check);
                netStatements++;
            } else {
                PreparedStatement ps = plan.statement(Form.DELETE_BY_KEYS, null, null, chunk, sql);
                int p = 1;
                for (int r = from; r < from + chunk; r++) {
                    for (int c : keyCols) {
                        plan.bind(ps, p++, images[r], c);
                    }
                }
                check.verify(netDelete(plan, ps, where));
            }
            i += chunk;
        }
    }

    /** Inserts (or upserts) final rows, grouped by the columns their images hold. */
    private void insertAll(TablePlan plan, List<NetEffect.Row> rows, String where, Form form) throws SQLException {
        Map<BitSet, List<Object[]>> byColumns = new LinkedHashMap<>();
        for (NetEffect.Row row : rows) {
            byColumns.computeIfAbsent(row.columns(), k -> new ArrayList<>()).add(row.image());
        }
        for (Map.Entry<BitSet, List<Object[]>> e : byColumns.entrySet()) {
            netStatements += insert(plan, e.getKey(), e.getValue(), where, form);
        }
    }

    /**
     * Most surplus copies of one row value deleted and inserted again by a set-wise keyless delete;
     * a value with more copies on the target than the unit removes is deleted with {@code LIMIT n}.
     */
    static final int MAX_REINSERTED_COPIES = 8;

    /**
     * Applies a keyless table's net effect (see {@link KeylessNetEffect}): counts and locks the copies
     * the target holds of every value the unit removes, a chunk of values per statement; fails when
     * one has fewer copies than the unit removes (the target's data differs); deletes every copy of
     * those values in one statement per chunk and inserts again the copies the unit did not remove
     * (equal rows cannot be told apart), except for a value with many surplus copies, deleted alone
     * with {@code LIMIT n}; then inserts every added copy. Three or four statements per chunk of
     * values instead of one per row change. Where an index makes a DELETE of one value cheap
     * ({@link #deletesPerValue}), each removed value is instead one {@code DELETE … LIMIT n} in the
     * batch: no count, no copy written twice, no round trip of its own.
     */
    private void applyKeyless(TablePlan plan, KeylessNetEffect effect, String where) throws SQLException {
        int[] cols = plan.keylessColumns;
        List<KeylessNetEffect.Copies> copies = effect.copies();
        List<KeylessNetEffect.Copies> removed = new ArrayList<>();
        for (KeylessNetEffect.Copies c : copies) {
            if (c.delete() > 0) {
                removed.add(c);
            }
        }
        List<Object[]> reinserted = new ArrayList<>();
        BitSet reinsertedColumns = null;
        if (deletesPerValue(plan, removed)) {
            for (KeylessNetEffect.Copies c : removed) {
                deletePerValue(plan, cols, c, where);
            }
            removed.clear();
        }
        int maxValues = Math.max(1, Math.min(64, MAX_PLACEHOLDERS / (2 * Math.max(1, cols.length))));
        // Values with a NULL cell are matched apart (see RowSql.anyOf): they come last.
        removed.sort(java.util.Comparator.comparing(c -> hasNull(c.image(), cols)));
        int i = 0;
        while (i < removed.size()) {
            boolean withNulls = hasNull(removed.get(i).image(), cols);
            int same = i;
            while (same < removed.size() && hasNull(removed.get(same).image(), cols) == withNulls) {
                same++;
            }
            int from = i;
            // Each value is bound twice (counted, then deleted by the same list).
            int chunk = Integer.highestOneBit(fitting(Math.min(maxValues, same - i),
                v -> 2 * approxBytes(removed.get(from + v).image(), cols)));
            List<KeylessNetEffect.Copies> values = removed.subList(i, i + chunk);
            long[] have = countCopies(plan, cols, values, withNulls, where);
            List<KeylessNetEffect.Copies> wholly = new ArrayList<>();
            long whollyCopies = 0;
            for (int v = 0; v < chunk; v++) {
                KeylessNetEffect.Copies c = values.get(v);
                if (have[v] < c.delete()) {
                    throw dataDiffers("DELETE of " + c.delete() + " rows where " + plan.describe(c.image(), cols)
                        + " found " + have[v] + " in " + plan.schema, where);
                }
                long surplus = have[v] - c.delete();
                if (surplus > MAX_REINSERTED_COPIES) {
                    deleteSome(plan, cols, c, where);
                    continue;
                }
                wholly.add(c);
                whollyCopies += have[v];
                for (long n = 0; n < surplus; n++) {
                    reinserted.add(c.image());
                }
                if (surplus > 0) {
                    reinsertedColumns = allColumns(plan);
                }
            }
            deleteAllCopies(plan, cols, wholly, whollyCopies, withNulls, where);
            i += chunk;
        }
        Map<BitSet, List<Object[]>> byColumns = new LinkedHashMap<>();
        if (!reinserted.isEmpty()) {
            byColumns.put(reinsertedColumns, reinserted);
        }
        for (KeylessNetEffect.Copies c : copies) {
            for (int n = 0; n < c.insert(); n++) {
                byColumns.computeIfAbsent(c.columns(), k -> new ArrayList<>()).add(c.image());
            }
        }
        for (Map.Entry<BitSet, List<Object[]>> e : byColumns.entrySet()) {
            netStatements += insert(plan, e.getKey(), e.getValue(), where, Form.INSERT);
        }
        netRows += effect.changes();
    }

    /**
     * Most distinct row values removed per distinct value of the index's leading column for which
     * {@link #deletesPerValue} deletes value by value: one such DELETE reads the index entries of
     * its leading value, where one count (and one delete) of a list of values reads those of each
     * distinct leading value once.
     */
    static final int MAX_VALUES_PER_LEADING_VALUE = 4;

    /**
     * Whether the values a keyless net effect removes go as one {@code DELETE … LIMIT n} each, in the
     * batch with the other row statements (no round trip of their own), rather than counted, deleted
     * wholly and the surplus inserted again (two round trips per list of values, and rows written
     * twice). Only when an index leads with a column the rows are matched on, so that each DELETE
     * reads the entries of its value's leading value, not the table; and only when the values share
     * few leading values (a status column with three values would have each DELETE read a third of
     * the table, where the list reads it once), at most {@link #MAX_VALUES_PER_LEADING_VALUE} per
     * leading value.
     */
    private boolean deletesPerValue(TablePlan plan, List<KeylessNetEffect.Copies> removed) {
        if (!batching || plan.keylessIndexLead < 0 || removed.isEmpty()) {
            return false;
        }
        List<Object> leading = new ArrayList<>(removed.size());
        for (KeylessNetEffect.Copies c : removed) {
            leading.add(c.image()[plan.keylessIndexLead]);
        }
        return fewPerLeadingValue(leading);
    }

    /**
     * At most {@link #MAX_VALUES_PER_LEADING_VALUE} of these leading-column values (one per row value
     * removed) per distinct one; byte arrays (text) compare by content, NULL is a value of its own.
     */
    static boolean fewPerLeadingValue(List<Object> leading) {
        java.util.Set<Object> distinct = new java.util.HashSet<>();
        for (Object v : leading) {
            distinct.add(v instanceof byte[] b ? java.nio.ByteBuffer.wrap(b) : v);
        }
        return leading.size() <= MAX_VALUES_PER_LEADING_VALUE * (long) distinct.size();
    }

    /** Deletes {@code c.delete()} copies of one value: in the batch when it fits, else prepared. */
    private void deletePerValue(TablePlan plan, int[] cols, KeylessNetEffect.Copies c, String where)
        throws SQLException {
        if (!batchable(new Object[][] {c.image()}, 0, 1, cols)) {
            deleteSome(plan, cols, c, where);
            return;
        }
        Text t = text(plan, Form.DELETE_SOME, null, null, 1, () -> RowSql.deleteSome(plan.schema, plan.columns(cols)),
            where);
        t.all(c.image(), cols);
        t.number(c.delete());
        t.end(foundAll(plan, cols, c, where));
        netStatements++;
    }

    /** A DELETE of some copies of {@code c}'s value must find as many as the unit removes. */
    private StatementBatch.Check foundAll(TablePlan plan, int[] cols, KeylessNetEffect.Copies c, String where) {
        return found -> {
            if (found != c.delete()) {
                throw dataDiffers("DELETE of " + c.delete() + " rows where " + plan.describe(c.image(), cols)
                    + " found " + found + " in " + plan.schema, where);
            }
        };
    }

    /** Runs one DELETE of a net effect; returns the rows it found. */
    private int netDelete(TablePlan plan, PreparedStatement ps, String where) throws SQLException {
        try {
            int found = execute(ps, false);
            netStatements++;
            return found;
        } catch (SQLException e) {
            throw failure(e, "DELETE from " + plan.schema, where);
        }
    }

    private static BitSet allColumns(TablePlan plan) {
        BitSet all = new BitSet();
        all.set(0, plan.columnCount);
        return all;
    }

    private static boolean hasNull(Object[] image, int[] cols) {
        for (int c : cols) {
            if (image[c] == null) {
                return true;
            }
        }
        return false;
    }

    /** The copies the target holds of each value, locked. */
    private long[] countCopies(TablePlan plan, int[] cols, List<KeylessNetEffect.Copies> values, boolean withNulls,
                               String where) throws SQLException {
        int n = values.size();
        PreparedStatement ps = plan.statement(withNulls ? Form.COUNT_COPIES_WITH_NULLS : Form.COUNT_COPIES, null, null,
            n, () -> RowSql.countCopies(plan.schema, plan.columns(cols), n, withNulls));
        int p = 1;
        for (int pass = 0; pass < 2; pass++) {
            for (KeylessNetEffect.Copies c : values) {
                for (int col : cols) {
                    plan.bind(ps, p++, c.image(), col);
                }
            }
        }
        long[] out = new long[n];
        send();
        try (java.sql.ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                int v = rs.getInt(1);
                if (!rs.wasNull()) {
                    out[v] = rs.getLong(2); // a value without copies has no row: 0
                }
            }
        } catch (SQLException e) {
            throw failure(e, "SELECT from " + plan.schema, where);
        }
        netStatements++;
        return out;
    }

    /** Deletes every copy of the values, which must be {@code copies} rows in all (they are locked). */
    private void deleteAllCopies(TablePlan plan, int[] cols, List<KeylessNetEffect.Copies> values, long copies,
                                 boolean withNulls, String where) throws SQLException {
        int i = 0;
        long found = 0;
        while (i < values.size()) {
            int chunk = Integer.highestOneBit(values.size() - i);
            PreparedStatement ps = plan.statement(withNulls ? Form.DELETE_ALL_COPIES_WITH_NULLS : Form.DELETE_ALL_COPIES,
                null, null, chunk, () -> RowSql.deleteAllCopies(plan.schema, plan.columns(cols), chunk, withNulls));
            int p = 1;
            for (int v = i; v < i + chunk; v++) {
                for (int col : cols) {
                    plan.bind(ps, p++, values.get(v).image(), col);
                }
            }
            found += netDelete(plan, ps, where);
            i += chunk;
        }
        if (found != copies) {
            throw dataDiffers("DELETE of " + copies + " counted rows found " + found + " in " + plan.schema, where);
        }
    }

    /** Deletes {@code c.delete()} of the value's copies (the target holds more). */
    private void deleteSome(TablePlan plan, int[] cols, KeylessNetEffect.Copies c, String where) throws SQLException {
        PreparedStatement ps = plan.statement(Form.DELETE_SOME, null, null, 1,
            () -> RowSql.deleteSome(plan.schema, plan.columns(cols)));
        int p = 1;
        for (int col : cols) {
            plan.bind(ps, p++, c.image(), col);
        }
        ps.setInt(p, c.delete());
        foundAll(plan, cols, c, where).verify(netDelete(plan, ps, where));
    }

    private TablePlan plan(TableMap map) throws SQLException {
        String key = map.schema() + "\u0000" + map.table();
        TableSchema schema = schemas.get(map.schema(), map.table(), connection);
        TablePlan plan = plans.get(key);
        if (plan == null || plan.schema != schema || plan.columnCount != map.columnCount()
            || plan.columnNames != map.columnNames()) {
            if (plan != null) {
                flush(plan);
                flushLinked(); // it may hold changes of the plan replaced
                plan.close();
            }
            plan = new TablePlan(schema, map, linkable(schema), component(schema));
            plans.put(key, plan);
        }
        return plan;
    }

    /**
     * Whether the table's row changes may be regrouped by their keys ({@link LinkedChanges}): a foreign
     * key links it, and whatever a change to it checks or cascades to is named by its keys. So: an
     * InnoDB table without triggers whose unique indexes are all keys a write set names; as a child,
     * each of its foreign keys references a unique key of a parent of the same kind (a check names the
     * parent key value); as a parent, each child's foreign key references one of its unique keys (a
     * cascade reaches the child rows that name the key value the change names) and no child is
     * referenced in turn (a cascade that went on to grandchildren would reach rows whose keys no
     * change names). A table that references itself is its own referenced child.
     */
    private boolean linkable(TableSchema t) throws SQLException {
        if (!t.linkedByForeignKeys() || !plainKeys(t)) {
            return false;
        }
        try {
            for (TableSchema.ForeignKey fk : t.foreignKeys()) {
                TableSchema parent = schemas.get(fk.parentSchema(), fk.parentTable(), connection);
                if (fk.columns().contains(-1) || !plainKeys(parent) || !referencesUniqueKey(fk, parent)) {
                    return false;
                }
            }
            if (t.referenced()) {
                List<TableSchemaCache.TableName> children = schemas.children(t.schema(), t.table(), connection);
                if (children.isEmpty()) {
                    return false; // referenced, but by whom is not known
                }
                for (TableSchemaCache.TableName name : children) {
                    TableSchema child = schemas.get(name.schema(), name.table(), connection);
                    if (child.referenced()) {
                        return false;
                    }
                    for (TableSchema.ForeignKey fk : child.foreignKeys()) {
                        if (fk.parentSchema().equalsIgnoreCase(t.schema()) && fk.parentTable().equalsIgnoreCase(t.table())
                            && (fk.columns().contains(-1) || !referencesUniqueKey(fk, t))) {
                            return false;
                        }
                    }
                }
            }
        } catch (ApplierException e) {
            return false; // a table the foreign keys name is gone (a DDL is under way): keep the source's order
        }
        return true;
    }

    /** Most tables {@link #component} follows foreign keys to. */
    static final int MAX_COMPONENT_TABLES = 64;

    /**
     * The group of tables foreign keys link to this one, directly or through others (a connected
     * component of the graph of foreign keys), named by its first table in name order; null when the
     * table is linked to none, or to more than {@link #MAX_COMPONENT_TABLES} or to one that cannot be
     * read (then every held change counts as linked to it). Changes to tables of different groups
     * cannot check or cascade to one another.
     */
    private String component(TableSchema t) throws SQLException {
        if (!t.linkedByForeignKeys()) {
            return null;
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.ArrayDeque<TableSchema> todo = new java.util.ArrayDeque<>();
        String first = TableSchemaLoader.parentKey(t.schema(), t.table());
        seen.add(first);
        todo.add(t);
        try {
            while (!todo.isEmpty()) {
                TableSchema x = todo.poll();
                List<TableSchemaCache.TableName> next = new ArrayList<>();
                for (TableSchema.ForeignKey fk : x.foreignKeys()) {
                    next.add(new TableSchemaCache.TableName(fk.parentSchema(), fk.parentTable()));
                }
                if (x.referenced()) {
                    next.addAll(schemas.children(x.schema(), x.table(), connection));
                }
                for (TableSchemaCache.TableName n : next) {
                    String key = TableSchemaLoader.parentKey(n.schema(), n.table());
                    if (seen.add(key)) {
                        if (seen.size() > MAX_COMPONENT_TABLES) {
                            return null;
                        }
                        if (key.compareTo(first) < 0) {
                            first = key;
                        }
                        todo.add(schemas.get(n.schema(), n.table(), connection));
                    }
                }
            }
        } catch (ApplierException e) {
            return null;
        }
        return first;
    }

    /**
     * InnoDB (or the like), no trigger, a lookup key, and every unique index a key write sets name,
     * none with a generated column (whose value a row image may lack).
     */
    private static boolean plainKeys(TableSchema t) {
        if (!t.transactional() || t.hasTriggers() || t.lookupKey().isEmpty()
            || t.uniqueIndexCount() != t.uniqueKeys().size()) {
            return false;
        }
        for (TableSchema.KeyInfo key : t.uniqueKeys()) {
            for (int c : key.columns()) {
                if (t.columns().get(c).generated()) {
                    return false;
                }
            }
        }
        for (TableSchema.ForeignKey fk : t.foreignKeys()) {
            for (int c : fk.columns()) {
                if (c >= 0 && t.columns().get(c).generated()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The foreign key references a unique key of {@code parent}, its columns in the key's order. */
    private static boolean referencesUniqueKey(TableSchema.ForeignKey fk, TableSchema parent) {
        for (TableSchema.KeyInfo key : parent.uniqueKeys()) {
            if (key.columns().size() != fk.parentColumns().size()) {
                continue;
            }
            boolean same = true;
            for (int i = 0; i < key.columns().size() && same; i++) {
                same = parent.columns().get(key.columns().get(i)).name().equalsIgnoreCase(fk.parentColumns().get(i));
            }
            if (same) {
                return true;
            }
        }
        return false;
    }

    private void sessionFlags(boolean fk, boolean unique) throws SQLException {
        if (foreignKeyChecks == null || foreignKeyChecks != fk || uniqueChecks == null || uniqueChecks != unique) {
            send();
            try (Statement s = connection.createStatement()) {
                s.execute("SET SESSION foreign_key_checks=" + (fk ? 1 : 0) + ", unique_checks=" + (unique ? 1 : 0));
            }
            foreignKeyChecks = fk;
            uniqueChecks = unique;
        }
    }

    /** Forget session state (after a reconnect or rollback of SET statements). */
    void resetSession() {
        foreignKeyChecks = null;
        uniqueChecks = null;
    }

    private void insert(TablePlan plan, Change.Rows rows, String where, boolean replace) throws SQLException {
        insert(plan, rows.afterColumns(), rows.rows(), where, replace ? Form.REPLACE : Form.INSERT);
    }

    /**
     * Inserts rows that hold the columns {@code present}, several per statement; returns the
     * statements sent. {@link Form#UPSERT}: every row exists on the target with its lookup key and
     * is updated in place ({@code INSERT … ON DUPLICATE KEY UPDATE}); each then reports 2 affected
     * rows, and anything less means a row was missing (and got inserted) or already held these
     * values, which the caller cannot tell apart: a data conflict, to be sorted out by applying the
     * unit again in order.
     */
    private int insert(TablePlan plan, BitSet present, List<Object[]> list, String where, Form form)
        throws SQLException {
        Object[][] images = rowArray(list);
        int[] cols = plan.writable(present);
        int[] update = form == Form.UPSERT ? plan.nonKey(cols) : null;
        int statements = 0;
        int maxRows = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, MAX_PLACEHOLDERS / Math.max(1, cols.length)));
        int i = 0;
        while (i < images.length) {
            int from = i;
            int n = fitting(Math.min(maxRows, images.length - i), r -> approxBytes(images[from + r], cols));
            // Power-of-two chunks keep the number of distinct prepared statements small.
            int chunk = Integer.highestOneBit(n);
            java.util.function.Supplier<String> sql = () -> form == Form.UPSERT
                ? RowSql.upsert(plan.schema, plan.columns(cols), plan.columns(update), chunk)
                : RowSql.insert(plan.schema, plan.columns(cols), chunk, form == Form.REPLACE);
            StatementBatch.Check check = form != Form.UPSERT ? StatementBatch.Check.NONE : affected -> {
                if (affected != 2L * chunk) {
                    throw dataDiffers("INSERT … ON DUPLICATE KEY UPDATE of " + chunk + " rows that exist by key reported "
                        + affected + " affected rows (2 each when found and changed) in " + plan.schema, where);
                }
            };
            boolean enumErrorValue = false;
            for (int r = from; r < from + chunk; r++) {
                enumErrorValue |= plan.hasEnumErrorValue(images[r], cols);
            }
            if (form != Form.REPLACE && !enumErrorValue && batchable(images, from, from + chunk, cols)) {
                Text t = text(plan, form, present, present, chunk, sql, where);
                for (int r = from; r < from + chunk; r++) {
                    t.all(images[r], cols);
                }
                t.end(check);
            } else {
                PreparedStatement ps = plan.statement(form, present, present, chunk, sql);
                int p = 1;
                for (int r = from; r < from + chunk; r++) {
                    for (int c : cols) {
                        plan.bind(ps, p++, images[r], c);
                    }
                }
                int affected;
                try {
                    affected = execute(ps, enumErrorValue);
                } catch (SQLException e) {
                    throw failure(e, "INSERT into " + plan.schema, where);
                }
                check.verify(affected);
            }
            statements++;
            i += chunk;
        }
        return statements;
    }

    private void updateOrDelete(TablePlan plan, BitSet before, BitSet after, List<Object[]> list, String where,
                                boolean idempotent, boolean update) throws SQLException {
        int[] keyCols = plan.keyColumns(before);
        boolean byKey = keyCols != null;
        int[] whereCols = byKey ? keyCols : plan.writable(before);
        int[] setCols = update ? plan.writable(after) : new int[0];
        Form form = update ? Form.UPDATE : Form.DELETE;
        java.util.function.Supplier<String> sql = () -> update
            ? RowSql.update(plan.schema, plan.columns(setCols), plan.columns(whereCols), byKey)
            : RowSql.delete(plan.schema, plan.columns(whereCols), byKey);
        Object[][] images = rowArray(list);
        int step = update ? 2 : 1;
        PreparedStatement ps = null;
        for (int r = 0; r < images.length; r += step) {
            Object[] beforeImage = images[r];
            Object[] afterImage = update ? images[r + 1] : null;
            StatementBatch.Check found = n -> {
                if (n == 0 && !idempotent) {
                    throw dataDiffers((update ? "UPDATE" : "DELETE") + " found no row in " + plan.schema + " where "
                        + plan.describe(beforeImage, whereCols), where);
                }
            };
            if (!idempotent && !(update && plan.hasEnumErrorValue(afterImage, setCols))
                && batchable(images, r, r + step, null)) {
                Text t = text(plan, form, before, after, 1, sql, where);
                if (update) {
                    t.all(afterImage, setCols);
                }
                t.all(beforeImage, whereCols);
                t.end(found);
                continue;
            }
            if (ps == null) {
                ps = plan.statement(form, before, after, 1, sql);
            }
            int p = 1;
            if (update) {
                for (int c : setCols) {
                    plan.bind(ps, p++, afterImage, c);
                }
            }
            for (int c : whereCols) {
                plan.bind(ps, p++, beforeImage, c);
            }
            try {
                found.verify(execute(ps, update && plan.hasEnumErrorValue(afterImage, setCols)));
            } catch (SQLException e) {
                throw failure(e, (update ? "UPDATE of " : "DELETE from ") + plan.schema, where);
            }
        }
    }

    /**
     * The statement of the row images from {@code from} to {@code to} (an update's before and after
     * image count as two) may go as text in the batch: batching is on, the statement
     * is small (a multi-row statement's round trip is shared by its rows already, and its values
     * cost the target less to read bound than as text) and no value is so large that the statement
     * would not fit ({@code cols} null: every column of the images).
     */
    private boolean batchable(Object[][] images, int from, int to, int[] cols) {
        if (!batching || to - from > MAX_ROWS_PER_TEXT_STATEMENT) {
            return false;
        }
        long chars = 0;
        for (int r = from; r < to; r++) {
            Object[] image = images[r];
            if (image == null) {
                continue;
            }
            if (cols == null) {
                for (Object v : image) {
                    chars += SqlLiteral.approxLength(v);
                }
            } else {
                for (int c : cols) {
                    chars += SqlLiteral.approxLength(image[c]);
                }
            }
        }
        return chars < batch.maxChars() / 2;
    }

    /** Starts writing one statement of this shape into the batch (sent first when full). */
    private Text text(TablePlan plan, Form form, BitSet before, BitSet after, int rows,
                      java.util.function.Supplier<String> sql, String where) throws SQLException {
        if (batch.full()) {
            send();
        }
        SqlTemplate template = plan.template(new ShapeKey(form, before, after, rows), sql);
        batchTables.add(plan.schema);
        int mark = batch.mark();
        return new Text(plan, template, batch.next(where), mark);
    }

    /** One statement being written into the batch: a literal for each parameter, in order. */
    private final class Text {
        private final TablePlan plan;
        private final SqlTemplate template;
        private final StringBuilder sb;
        private final int mark;
        private int param;

        Text(TablePlan plan, SqlTemplate template, StringBuilder sb, int mark) {
            this.plan = plan;
            this.template = template;
            this.sb = sb;
            this.mark = mark;
        }

        void all(Object[] image, int[] cols) {
            for (int c : cols) {
                sb.append(template.part(param++));
                try {
                    SqlLiteral.append(sb, image[c], plan.types[c], plan.unsigned[c]);
                } catch (RuntimeException e) {
                    batch.undo(mark);
                    throw e;
                }
            }
        }

        /** An integer parameter (a LIMIT). */
        void number(long n) {
            sb.append(template.part(param++)).append(n);
        }

        void end(StatementBatch.Check check) {
            if (param != template.params()) {
                batch.undo(mark);
                throw new IllegalStateException(param + " values for " + template.params() + " parameters");
            }
            sb.append(template.part(param));
            batch.added(check);
        }
    }

    /**
     * Runs a row statement. An ENUM cell with index 0 is the "error value" a non-strict source
     * session stores for a value that is no member; a strict session refuses to store it, so such a
     * statement alone runs without strict mode (the value itself is exact either way).
     */
    private int execute(PreparedStatement ps, boolean enumErrorValue) throws SQLException {
        send();
        if (!enumErrorValue) {
            return ps.executeUpdate();
        }
        try (Statement s = connection.createStatement()) {
            s.execute("SET SESSION sql_mode = REPLACE(@@sql_mode, 'STRICT_ALL_TABLES', '')");
            int n;
            try {
                n = ps.executeUpdate();
            } catch (SQLException e) {
                try {
                    s.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',STRICT_ALL_TABLES')");
                } catch (SQLException again) {
                    e.addSuppressed(again); // the statement's own error says what happened
                }
                throw e;
            }
            s.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',STRICT_ALL_TABLES')");
            return n;
        }
    }

    /**
     * A list of row images as an array. The lists come in several classes (a rows event's lazily
     * decoded images, a net effect's lists); indexing one array class keeps the row loops of the
     * statement writers monomorphic, so the JIT compiles them once instead of again for each class.
     */
    private static Object[][] rowArray(List<Object[]> images) {
        return images.toArray(new Object[images.size()][]);
    }

    /**
     * How many of the next {@code available} rows one statement takes: as many as fit in
     * {@link #maxStatementBytes} ({@code bytesOf} the n-th of them), and at least one.
     */
    private int fitting(int available, java.util.function.IntToLongFunction bytesOf) {
        int n = 0;
        long bytes = 0;
        while (n < available) {
            long next = bytesOf.applyAsLong(n);
            if (n > 0 && bytes + next > maxStatementBytes) {
                break;
            }
            bytes += next;
            n++;
        }
        return n;
    }

    private static long approxBytes(Object[] image, int[] cols) {
        long n = 0;
        for (int c : cols) {
            Object v = image[c];
            if (v instanceof byte[] b) {
                n += b.length;
            } else if (v instanceof io.binlogapplier.binlog.JsonText j) {
                n += 3L * j.text().length(); // UTF-8: at most 3 bytes per char (a surrogate pair: 4 for 2)
            } else if (v instanceof CharSequence t) {
                n += 3L * t.length();
            } else {
                n += 8;
            }
        }
        return n;
    }

    private static ApplierException dataDiffers(String what, String where) {
        return new ApplierException(ExitCode.TARGET_DATA_CONFLICT, what + " (" + where + "): the target's data differs"
            + " from the source's; repair or re-seed the target and restart");
    }

    private SQLException failure(SQLException e, String what, String where) {
        if (ErrorClassifier.classify(e, Side.TARGET).action() != Classification.Action.FATAL) {
            return e;
        }
        throw Messages.targetFailure(e, what, where);
    }

    @Override
    public void close() {
        batch.close();
        for (TablePlan p : plans.values()) {
            p.close();
        }
        plans.clear();
    }

    /** One table's buffered changes: {@code effect} for a table with a lookup key, else {@code keyless}. */
    private record Buffered(NetEffect effect, KeylessNetEffect keyless, String where) {
    }

    /** What one worker knows of one table: mapping, statements by row shape. */
    private final class TablePlan {
        final TableSchema schema;
        final int columnCount;
        final List<String> columnNames;
        final int[] targetOf;
        final int[] types;
        final boolean[] unsigned;
        final Map<BitSet, int[]> writableCache = new HashMap<>();
        final Map<BitSet, Boolean> coversCache = new HashMap<>();
        /** The text of each statement shape written into the batch, split at its parameters. */
        final Map<ShapeKey, SqlTemplate> templates = new HashMap<>();
        /** Source columns of the lookup key when every one is in the binlog's table; else null. */
        final int[] lookupColumns;
        /**
         * Source columns that tell rows apart in a table without a lookup key (every column the target
         * stores, each one mapped from the source); null when the table has a lookup key or lacks that.
         */
        final int[] keylessColumns;
        /** Null when the net effect may apply to this table. */
        final String orderedReason;
        /** A foreign key links the table, and its changes may be regrouped by key ({@link LinkedChanges}). */
        final boolean linkable;
        /** The keys its row images name. */
        final WriteSets.Keys keys;
        /** The group of tables foreign keys link it to ({@link RowApplier#component}); null when none or unknown. */
        final String component;
        /**
         * Rows that existed and still do are updated in place ({@link Form#UPSERT}): the lookup key is
         * the only unique key, and some stored column is not part of it.
         */
        final boolean upsert;
        /** The source column of the target's AUTO_INCREMENT column, -1 when none. */
        final int autoIncrementColumn;
        /**
         * Keyless rows: the source column an index of the target leads with, among the columns rows
         * are matched on ({@link #keylessColumns}) and not compared as bytes (text, JSON, BIT … are
         * matched as {@code CAST(… AS BINARY)}, through no index); -1 when no index does.
         */
        final int keylessIndexLead;

        TablePlan(TableSchema schema, TableMap map, boolean linkable, String component) {
            this.schema = schema;
            this.columnCount = map.columnCount();
            this.columnNames = map.columnNames();
            this.targetOf = ColumnMapping.of(map, schema);
            this.types = map.types();
            this.unsigned = new boolean[columnCount];
            for (int i = 0; i < columnCount; i++) {
                unsigned[i] = map.unsigned() != null ? map.unsigned()[i] : schema.columns().get(targetOf[i]).unsigned();
            }
            BitSet all = new BitSet();
            all.set(0, columnCount);
            this.lookupColumns = keyColumns(all);
            this.keylessColumns = schema.lookupKey().isEmpty() && covers(all) ? writable(all) : null;
            this.orderedReason = schema.orderedApplyReason();
            this.component = component;
            this.linkable = linkable && lookupColumns != null && component != null;
            this.keys = new WriteSets.Keys(map, schema);
            this.upsert = lookupColumns != null && schema.lookupKeyIsTheOnlyUniqueKey()
                && nonKey(writable(all)).length > 0;
            int auto = -1;
            for (int i = 0; i < columnCount; i++) {
                if (targetOf[i] >= 0 && schema.columns().get(targetOf[i]).autoIncrement()) {
                    auto = i;
                }
            }
            this.autoIncrementColumn = auto;
            int lead = -1;
            if (keylessColumns != null) {
                for (TableSchema.KeyInfo index : schema.indexes()) {
                    ColumnInfo first = schema.columns().get(index.columns().get(0));
                    // rows are not matched on a generated column, and on text and the like as
                    // CAST(… AS BINARY), which no index finds
                    int source = first.generated() || RowSql.comparesAsBytes(first) ? -1
                        : sourceOf(index.columns().get(0));
                    if (source >= 0) {
                        lead = source;
                        break;
                    }
                }
            }
            this.keylessIndexLead = lead;
        }

        /** The columns of {@code cols} that are not in the lookup key. */
        int[] nonKey(int[] cols) {
            return java.util.Arrays.stream(cols)
                .filter(c -> java.util.Arrays.stream(lookupColumns).noneMatch(k -> k == c)).toArray();
        }

        /**
         * The event may join the table's net effect: the table allows it, before images hold the
         * lookup key and after images every column the target stores (a row is re-inserted whole).
         */
        boolean netEffectFits(Change.Rows rows) {
            if (orderedReason != null) {
                return false;
            }
            if (lookupColumns == null) {
                // A keyless row is named by all its values: full images only (binlog_row_image=FULL).
                return keylessColumns != null
                    && (rows.kind() == RowsKind.INSERT || rows.beforeColumns().cardinality() == columnCount)
                    && (rows.kind() == RowsKind.DELETE || rows.afterColumns().cardinality() == columnCount);
            }
            if (rows.kind() != RowsKind.INSERT && keyColumns(rows.beforeColumns()) == null) {
                return false;
            }
            return rows.kind() == RowsKind.DELETE || covers(rows.afterColumns());
        }

        /**
         * The event may be held with others of tables foreign keys link and regrouped by key
         * ({@link LinkedChanges}): the table allows it, the event checks foreign and unique keys (as
         * the statements that apply it do), and its images hold every column, so that the keys of each
         * change are all known.
         */
        boolean regroupable(Change.Rows rows) {
            return linkable && rows.foreignKeyChecks() && rows.uniqueChecks()
                && (rows.kind() == RowsKind.INSERT || rows.beforeColumns().cardinality() == columnCount)
                && (rows.kind() == RowsKind.DELETE || rows.afterColumns().cardinality() == columnCount);
        }

        /** Every non-generated target column gets its value from a column of the image. */
        private boolean covers(BitSet present) {
            return coversCache.computeIfAbsent(present, p -> {
                BitSet targets = new BitSet();
                for (int c : writable(p)) {
                    targets.set(targetOf[c]);
                }
                for (ColumnInfo col : schema.columns()) {
                    if (!col.generated() && !targets.get(col.ordinal())) {
                        return false;
                    }
                }
                return true;
            });
        }

        /** Source columns present in the image that the target lets us write (not generated). */
        int[] writable(BitSet present) {
            return writableCache.computeIfAbsent(present, p -> {
                List<Integer> out = new ArrayList<>();
                for (int i = p.nextSetBit(0); i >= 0; i = p.nextSetBit(i + 1)) {
                    if (!schema.columns().get(targetOf[i]).generated()) {
                        out.add(i);
                    }
                }
                return out.stream().mapToInt(Integer::intValue).toArray();
            });
        }

        /** Source columns of the lookup key, if the before image has them all; else null. */
        int[] keyColumns(BitSet before) {
            if (schema.lookupKey().isEmpty()) {
                return null;
            }
            int[] out = new int[schema.lookupKey().size()];
            for (int k = 0; k < out.length; k++) {
                int source = sourceOf(schema.lookupKey().get(k));
                if (source < 0 || !before.get(source)) {
                    return null;
                }
                out[k] = source;
            }
            return out;
        }

        /** The source column that fills target column {@code target} (its position), -1 when none does. */
        int sourceOf(int target) {
            for (int i = 0; i < columnCount; i++) {
                if (targetOf[i] == target) {
                    return i;
                }
            }
            return -1;
        }

        List<ColumnInfo> columns(int[] sourceCols) {
            List<ColumnInfo> out = new ArrayList<>(sourceCols.length);
            for (int c : sourceCols) {
                out.add(schema.columns().get(targetOf[c]));
            }
            return out;
        }

        boolean hasEnumErrorValue(Object[] image, int[] cols) {
            for (int c : cols) {
                if (types[c] == io.binlogapplier.binlog.BinlogType.ENUM && image[c] instanceof Integer i && i == 0) {
                    return true;
                }
            }
            return false;
        }

        void bind(PreparedStatement ps, int index, Object[] image, int sourceCol) throws SQLException {
            ValueBinder.bind(ps, index, image[sourceCol], types[sourceCol], unsigned[sourceCol]);
        }

        /** The statement of this shape, prepared now unless the worker keeps it; use it at once. */
        PreparedStatement statement(Form form, BitSet before, BitSet after, int rows,
                                    java.util.function.Supplier<String> sql) throws SQLException {
            PlanShape key = new PlanShape(this, new ShapeKey(form, before, after, rows));
            PreparedStatement ps = prepared.get(key);
            if (ps == null) {
                ps = connection.prepareStatement(sql.get());
                prepared.put(key, ps);
            }
            return ps;
        }

        SqlTemplate template(ShapeKey shape, java.util.function.Supplier<String> sql) {
            return templates.computeIfAbsent(shape, k -> SqlTemplate.of(sql.get()));
        }

        String describe(Object[] image, int[] cols) {
            StringBuilder sb = new StringBuilder();
            for (int c : cols) {
                if (sb.length() > 0) {
                    sb.append(" AND ");
                }
                if (sb.length() > 200) {
                    sb.append("…");
                    break;
                }
                Object v = image[c];
                String text = v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8)
                    : String.valueOf(v);
                if (text.length() > 40) {
                    text = text.substring(0, 40) + "…";
                }
                sb.append('`').append(schema.columns().get(targetOf[c]).name()).append("`=").append(text);
            }
            return sb.toString();
        }

        void close() {
            prepared.closeAll(k -> k.plan() == this);
        }
    }

    private static void closeQuietly(PreparedStatement ps) {
        try {
            ps.close();
        } catch (SQLException ignored) {
            // the connection may be gone; nothing to do
        }
    }

    /** A prepared statement's key in the worker's cache: the table's plan (by identity) and the shape. */
    private record PlanShape(TablePlan plan, ShapeKey shape) {
    }

    /** The statements a table's plan prepares, one per form and row shape. */
    private enum Form {
        /** Rows in order: one UPDATE or DELETE per row change. */
        UPDATE, DELETE,
        /** Multi-row INSERT, REPLACE (a replay into a non-transactional table), upsert of existing rows. */
        INSERT, REPLACE, UPSERT,
        /** Net effect: DELETE by lookup-key values. */
        DELETE_BY_KEYS,
        /**
         * Keyless net effect: count copies of values, delete every copy (of values without and with
         * a NULL cell, matched apart), delete some copies.
         */
        COUNT_COPIES, COUNT_COPIES_WITH_NULLS, DELETE_ALL_COPIES, DELETE_ALL_COPIES_WITH_NULLS, DELETE_SOME
    }

    /** A prepared statement's shape: its form, the columns of the images it binds, its rows. */
    private record ShapeKey(Form form, BitSet before, BitSet after, int rows) {
    }
}
