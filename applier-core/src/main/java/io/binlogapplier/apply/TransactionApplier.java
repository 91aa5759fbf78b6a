package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;

import io.binlogapplier.config.ApplyMethod;
import io.binlogapplier.errors.VendorCode;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.Transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Applies the changes of transaction parts on one target connection, inside whatever target
 * transaction the caller has open. Owned by one worker; not thread-safe.
 */
public final class TransactionApplier implements AutoCloseable {
    /**
     * The session every worker connection runs in: UTC so TIMESTAMP literals mean what the binlog
     * says; a strict sql_mode so a value the target cannot hold is an error, not a silent
     * truncation, yet zero and partial-zero dates are accepted; NO_AUTO_VALUE_ON_ZERO so an
     * AUTO_INCREMENT column keeps a replicated 0; READ COMMITTED to take no gap locks.
     */
    public static final String SESSION_INIT = "SET SESSION time_zone='+00:00',"
        + " sql_mode='STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION,ALLOW_INVALID_DATES',"
        + " timestamp=DEFAULT, foreign_key_checks=1, unique_checks=1, collation_connection='utf8mb4_general_ci'";

    private final Connection connection;
    private final TableSchemaCache schemas;
    private final RowApplier rows;
    private final StatementRunner statements;
    private final BinlogStatements binlog;
    private final boolean binlogMethod;
    private final boolean netEffect;
    private final boolean mysqlTarget;
    private final LeanImages lean;
    private boolean sqlOnly;
    /** Tables with rows in BINLOG statements not yet sent (perhaps sent since: a superset). */
    private final Set<TableSchema> inBinlog = new HashSet<>();
    /** Some of those tables are linked to others by a foreign key. */
    private boolean binlogLinked;

    /**
     * @param options the apply method (SQL or BINLOG; not auto), net effect under SQL, lean row
     *     images under BINLOG ({@link LeanImages})
     * @param workers how many workers apply to the target: together they keep at most half of the
     *     server's default limit of open prepared statements ({@link #maxPreparedStatements})
     */
    public TransactionApplier(Connection connection, TableSchemaCache schemas, CharsetResolver charsets,
                              ApplyOptions options, int workers) throws SQLException {
        this.connection = connection;
        this.schemas = schemas;
        long maxPacket = maxAllowedPacket(connection);
        this.rows = new RowApplier(connection, schemas, maxPreparedStatements(workers), maxPacket);
        this.statements = new StatementRunner(connection, charsets, SESSION_INIT);
        initSession(connection);
        this.binlogMethod = options.method() == ApplyMethod.BINLOG;
        this.netEffect = options.netEffect() && !binlogMethod;
        this.binlog = new BinlogStatements(connection, maxEventBytes(maxPacket));
        this.mysqlTarget = !connection.getMetaData().getDatabaseProductVersion().toLowerCase(java.util.Locale.ROOT)
            .contains("mariadb");
        this.lean = new LeanImages(options.leanBeforeImages() && !mysqlTarget, options.leanAfterImages() && !mysqlTarget);
    }

    /** Most prepared statements for row changes each of {@code workers} workers keeps open. */
    public static int maxPreparedStatements(int workers) {
        return RowApplier.maxPreparedStatements(workers);
    }

    /** Raw event bytes per BINLOG statement: base64 grows them by a third; stay well under max_allowed_packet. */
    private static long maxEventBytes(long maxAllowedPacket) {
        return Math.max(64 << 10, Math.min(8L << 20, maxAllowedPacket / 2));
    }

    private static long maxAllowedPacket(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT @@max_allowed_packet")) {
            return rs.next() ? rs.getLong(1) : 16L << 20;
        }
    }

    /** Puts a connection into the applier's session state. */
    public static void initSession(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute(SESSION_INIT);
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
            // Short enough that a conflict nobody detected is resolved by a retry within seconds.
            s.execute("SET SESSION innodb_lock_wait_timeout = 10");
        }
    }

    /**
     * Applies every change of {@code part}.
     *
     * @param replay the transaction may have been applied, in part, before a crash: DDL that is
     *     already there is skipped, and row changes to non-transactional tables are made idempotent
     */
    public void apply(Transaction part, boolean replay) throws SQLException {
        String where = describe(part);
        for (Change c : part.changes()) {
            if (c instanceof Change.Rows r) {
                TableSchema table = schemas.get(r.table().schema(), r.table().table(), connection);
                // A table with triggers on the target goes as BINLOG statements: the triggers' effects on the
                // source are already in the binlog as row changes of their own, so an INSERT/UPDATE/DELETE here
                // would apply them twice; rows applied through a BINLOG statement fire no trigger (as with the
                // native replica). So does a system-versioned table (a BINLOG statement keeps the source's
                // history times) and one with a long unique key (its hidden hash column), see binlogOnlyReason.
                if (!replay && r.body() != null && part.head().format() != null
                    && (binlogMethod && !sqlOnly || table.binlogOnlyReason() != null || mysqlTarget && opaqueJson(r))
                    && inTargetOrder(r, table, where)) {
                    // Row statements written before it go first where their order can matter (see below).
                    rows.sendFor(table, table.linkedByForeignKeys());
                    inBinlog.add(table);
                    binlogLinked |= table.linkedByForeignKeys();
                    List<Change.Rows> tooLarge = binlog.add(lean.apply(r, table), part.head().format(), where);
                    for (Change.Rows big : tooLarge) {
                        rows.apply(big, where, false, false, RowApplier.SqlAction.NONE);
                    }
                    if (!tooLarge.isEmpty()) {
                        rows.send();
                    }
                } else {
                    // Applied in order (or, for a net-effect table, at the end of the unit). BINLOG statements
                    // not yet sent go first when they hold rows of this table, or of a table a foreign key links
                    // to others; the rows of any other table change that table alone (a BINLOG statement fires
                    // no trigger, a statement here fires none on a table whose rows go as BINLOG), so the two
                    // may reach the target in either order.
                    // Rows of this very table waiting in a BINLOG statement (on a MySQL target a table's rows go one
                    // way or the other event by event, by their JSON) go first even when this event joins the
                    // table's net effect: a net effect written out early (a full buffer) would overtake them.
                    if (inBinlog.contains(table)) {
                        flushBinlog();
                    }
                    rows.apply(r, where, replay, netEffect && !sqlOnly, () -> {
                        if (binlogLinked || inBinlog.contains(table)) {
                            flushBinlog();
                        }
                    });
                    if (rows.bufferFull()) {
                        rows.flush();
                    }
                }
            } else if (c instanceof Change.Statement s) {
                flush();
                // A statement that changes no table's definition (GRANT, ANALYZE, TRUNCATE …) keeps those read so
                // far, and a DDL forgets only what it may change: reading every table again after each such
                // statement (a few ms a table) made a source that grants or alters often fall far behind.
                boolean definitions = s.changesTableDefinitions();
                if (definitions) {
                    schemas.ddlStarting();
                }
                statements.run(s, where, replay);
                rows.resetSession();
                if (definitions) {
                    schemas.invalidateAfter(s.sql());
                }
            }
        }
    }

    /**
     * True when a BINLOG statement of these rows would put each value in its own column: the target
     * applies a BINLOG statement's row images by position, so a binlog that names the columns
     * ({@code binlog_row_metadata=FULL}) in another order than the target's would swap values. Such rows
     * go as SQL, which matches columns by name; a table whose rows cannot (triggers on the target, which
     * SQL would fire; JSON that SQL would retype on MySQL) stops the applier.
     */
    private boolean inTargetOrder(Change.Rows r, TableSchema table, String where) {
        if (ColumnMapping.positional(r.table(), table)) {
            return true;
        }
        if (table.binlogOnlyReason() != null || mysqlTarget && opaqueJson(r)) {
            throw new ApplierException(ExitCode.TARGET_SCHEMA_MISMATCH, "target table " + table + " orders its"
                + " columns differently from the source (" + r.table().columnNames() + ") and "
                + (table.binlogOnlyReason() != null ? table.binlogOnlyReason() : "holds JSON") + ", so its rows ("
                + where + ") can go"
                + " neither as BINLOG statements (applied by column position) nor as SQL: order its columns as on"
                + " the source (SHOW CREATE TABLE on both), then restart");
        }
        return false;
    }

    /**
     * Sends the BINLOG statements buffered so far, within the open target transaction (a worker
     * sends a unit in batches while read-ahead reads: {@code ReadAhead.batchRows}).
     */
    public void sendBinlog() throws SQLException {
        if (!binlog.midStatement()) {
            flushBinlog();
        }
    }

    private void flushBinlog() throws SQLException {
        binlog.flush();
        inBinlog.clear();
        binlogLinked = false;
    }

    /**
     * Some JSON cell of these rows holds an opaque scalar (a DECIMAL, DATE, TIME, DATETIME, TIMESTAMP
     * or binary string inside the document). Its text is what MySQL prints, but MySQL parses that
     * text back as a double or a string: {@code JSON_OBJECT('p', 1.50)} would become {@code {"p": 1.5}}
     * as a DOUBLE. On a MySQL target such rows go as a BINLOG statement, which carries the binary
     * JSON itself (issue 17, #2); MariaDB stores JSON as text, which the text is exactly.
     */
    static boolean opaqueJson(Change.Rows r) {
        boolean json = false;
        for (int type : r.table().types()) {
            json |= type == io.binlogapplier.binlog.BinlogType.JSON;
        }
        if (!json) {
            return false; // without reading (decoding) the rows
        }
        for (Object[] image : r.rows()) {
            for (Object cell : image) {
                if (cell instanceof io.binlogapplier.binlog.JsonText j && j.opaque()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Applies rows as SQL, one by one in source order, each statement prepared and sent alone, even
     * under apply.method binlog (except for tables with triggers) and whatever the net effect
     * setting: used to apply a unit again when a
     * BINLOG statement or a net effect failed without naming the transaction and row at fault.
     */
    public void sqlOnly(boolean on) {
        sqlOnly = on;
        rows.batching(!on);
    }

    /**
     * True while a data conflict in the open unit may have come from a statement that spans several
     * transactions (a BINLOG statement, a net effect, or a batch of row statements sent together):
     * applying the unit again with {@link #sqlOnly} names the transaction and the row.
     */
    public boolean mayNameTheRowByApplyingInOrder() {
        return !sqlOnly; // BINLOG statements, net effects and batches of row statements all span rows
    }

    /**
     * The open unit's counts since the last call: {@code {netRows, netStatements, orderedRows,
     * beforeImageBytesDropped, afterImageBytesDropped}} (see {@link
     * io.binlogapplier.pipeline.PipelineMetrics#netEffect} and {@link
     * io.binlogapplier.pipeline.PipelineMetrics#leanImages}).
     */
    public long[] takeCounts() {
        long[] r = rows.takeCounts();
        long[] lean = this.lean.takeDropped();
        return new long[] {r[0], r[1], r[2], lean[0], lean[1], r[3], r[4]};
    }

    /** True when {@code e} is MariaDB's "Unknown error" for a BINLOG statement (the cause is in its error log). */
    public static boolean binlogUnknownError(SQLException e) {
        return VendorCode.ER_UNKNOWN_ERROR.is(e);
    }

    /** Sends row changes still buffered (BINLOG statements, net effects); call before the position update. */
    public void flush() throws SQLException {
        flushBinlog();
        rows.flush();
    }

    /** Drops buffered row changes and the unit's counts (the unit is being rolled back). */
    public void discard() {
        binlog.discard();
        inBinlog.clear();
        binlogLinked = false;
        rows.discard();
        lean.discard();
    }

    /** Names a transaction in messages: its GTID (if any) and source position. */
    public static String describe(Transaction t) {
        return "transaction " + (t.head().gtid() == null ? "" : t.head().gtid() + " ") + "at " + t.head().start();
    }

    public Connection connection() {
        return connection;
    }

    @Override
    public void close() {
        rows.close();
    }
}
