package io.binlogapplier.apply;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.BinlogEvent;
import io.binlogapplier.binlog.EventBuffer;
import io.binlogapplier.binlog.EventEncoder;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import io.binlogapplier.errors.VendorCode;
import io.binlogapplier.transaction.Change;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The BINLOG apply method: row events go to the target as {@code BINLOG '<base64>'} statements,
 * the way {@code mariadb-binlog | mariadb} replays them, so the target applies them with its own
 * replication code: no SQL to parse, exact values, no triggers fired, foreign-key and unique
 * checks as the source's flags say.
 *
 * <p>Events are buffered across the transactions of a unit and sent as few statements as the
 * packet limit allows, one statement per round trip (several BINLOG statements in one
 * multi-statement packet are known to go wrong on MariaDB 10.11). Each source statement's table
 * maps precede its rows, as in the source binlog. A source statement larger than one BINLOG
 * statement is sent in pieces as it arrives, each ending the target statement with its last rows
 * event; a single rows event too large for a packet is returned to the caller to apply as SQL.
 */
final class BinlogStatements {
    /** Rows event flags the target reads when a statement starts: no foreign-key checks, relaxed unique checks. */
    private static final int STATEMENT_FLAGS = io.binlogapplier.binlog.BinlogEvent.Rows.FLAG_NO_FOREIGN_KEY_CHECKS
        | io.binlogapplier.binlog.BinlogEvent.Rows.FLAG_RELAXED_UNIQUE_CHECKS;

    private final Connection connection;
    private final long maxEventBytes;
    private final EventBuffer buffer = new EventBuffer(1 << 16);
    /** Rows of the source statement being received. */
    private final List<Change.Rows> statement = new ArrayList<>();
    private long statementBytes;
    /** Complete source statements waiting for {@link #flush}. */
    private final List<Change.Rows> buffered = new ArrayList<>();
    private long bufferedBytes;
    private byte[] sentFormat;
    private byte[] bufferFormat;
    private boolean checksums;
    private String firstWhere;
    private final boolean mariadb;
    private java.sql.PreparedStatement setFragment;

    /** @param maxEventBytes most raw event bytes per BINLOG statement (base64 adds a third) */
    BinlogStatements(Connection connection, long maxEventBytes) throws SQLException {
        this.connection = connection;
        this.maxEventBytes = maxEventBytes;
        this.mariadb = connection.getMetaData().getDatabaseProductVersion().toLowerCase(java.util.Locale.ROOT)
            .contains("mariadb");
    }

    /**
     * Buffers one rows event. Returns the rows of a source statement that cannot travel as BINLOG
     * (too large for one packet), which the caller applies as SQL; otherwise an empty list.
     */
    List<Change.Rows> add(Change.Rows rows, BinlogEvent.FormatDescription format, String where) throws SQLException {
        if (bufferFormat != null && bufferFormat != format.raw()) {
            flush();
        }
        if (bufferFormat == null) {
            bufferFormat = format.raw();
            checksums = EventEncoder.checksums(format.raw());
        }
        if (firstWhere == null) {
            firstWhere = where;
        }
        statement.add(rows);
        statementBytes += eventBytes(rows);
        if (!rows.statementEnd() && statement.size() > 1 && statementBytes > maxEventBytes) {
            // A source statement larger than one BINLOG statement (an INSERT … SELECT of a million rows):
            // what came before this event goes now as a statement of its own, so that no more than about one
            // BINLOG statement's worth of it is ever held. The rest follows in the next BINLOG statement,
            // with its table maps again; the target closes its tables between BINLOG statements anyway, and
            // inside the unit's transaction the rows are the same.
            Change.Rows next = statement.remove(statement.size() - 1);
            statementBytes -= eventBytes(next);
            if (statement.size() == 1 && statementBytes > maxEventBytes) {
                // One rows event larger than a BINLOG statement may be: the caller applies it as SQL, after what
                // is buffered and before the rest of its statement.
                List<Change.Rows> huge = new ArrayList<>(statement);
                statement.clear();
                statementBytes = 0;
                flushAndGoOn(format, where);
                statement.add(next);
                statementBytes = eventBytes(next);
                return huge;
            }
            if (bufferedBytes + statementBytes > maxEventBytes) {
                // The statements buffered before it go alone: with this piece they would pass the bound.
                sendBufferedAlone(format, where);
            }
            int last = statement.size() - 1;
            statement.set(last, endingStatement(statement.get(last)));
            flushAndGoOn(format, where);
            statement.add(next);
            statementBytes = eventBytes(next);
            return List.of();
        }
        if (!rows.statementEnd()) {
            return List.of();
        }
        List<Change.Rows> done = new ArrayList<>(statement);
        statement.clear();
        long bytes = statementBytes;
        statementBytes = 0;
        if (bytes > maxEventBytes && done.size() > 1) {
            // Only its last event took the statement past the bound (earlier ones would have cut it): the
            // events before it go as one BINLOG statement, the last as the next (or as SQL, should it alone
            // pass the bound). Sent as SQL whole, rows of a table with triggers would fire them.
            Change.Rows end = done.get(done.size() - 1);
            long endBytes = eventBytes(end);
            long restBytes = bytes - endBytes;
            if (restBytes > maxEventBytes) {
                // The rest is one event larger than a BINLOG statement (longer runs were cut before): SQL, all of it.
                flush();
                return done;
            }
            done.remove(done.size() - 1);
            done.set(done.size() - 1, endingStatement(done.get(done.size() - 1)));
            if (bufferedBytes + restBytes > maxEventBytes) {
                flushAndGoOn(format, where);
            }
            buffered.addAll(done);
            bufferedBytes += restBytes;
            flushAndGoOn(format, where);
            done = new ArrayList<>(List.of(end));
            bytes = endBytes;
        }
        if (bytes > maxEventBytes) {
            // One rows event larger than a BINLOG statement may be: the caller applies it as SQL.
            flush();
            return done;
        }
        if (bufferedBytes + bytes > maxEventBytes) {
            flushAndGoOn(format, where);
        }
        buffered.addAll(done);
        bufferedBytes += bytes;
        return List.of();
    }

    /** Sends the buffered source statements, not the unfinished one held, which stays held. */
    private void sendBufferedAlone(BinlogEvent.FormatDescription format, String where) throws SQLException {
        if (buffered.isEmpty()) {
            return;
        }
        List<Change.Rows> held = new ArrayList<>(statement);
        long heldBytes = statementBytes;
        statement.clear();
        statementBytes = 0;
        flushAndGoOn(format, where);
        statement.addAll(held);
        statementBytes = heldBytes;
    }

    /** Sends what is buffered and goes on buffering events of {@code format}, starting at {@code where}. */
    private void flushAndGoOn(BinlogEvent.FormatDescription format, String where) throws SQLException {
        flush();
        bufferFormat = format.raw(); // flush() forgot it
        firstWhere = where;
    }

    private static long eventBytes(Change.Rows rows) {
        return rows.body().length + rows.table().body().length + 50;
    }

    /**
     * The same rows event flagged as ending its statement. The body keeps its own flags: the
     * {@link EventBuffer} writes STMT_END_F from {@link Change.Rows#statementEnd()}.
     */
    private static Change.Rows endingStatement(Change.Rows r) {
        return new Change.Rows(r.table(), r.kind(), r.flags() | io.binlogapplier.binlog.BinlogEvent.Rows.FLAG_STMT_END,
            r.beforeColumns(), r.afterColumns(), r.rows(), r.sizeBytes(), r.header(), r.body());
    }

    /** True while rows of an unfinished source statement are held. */
    boolean midStatement() {
        return !statement.isEmpty();
    }

    /**
     * Encodes the buffered source statements, merged: the target opens and locks the tables of a
     * BINLOG statement's row events once per statement (STMT_END_F), which costs more than
     * applying a sysbench statement's row. Consecutive source statements therefore become one
     * target statement — all their table maps first, then their rows events with STMT_END_F
     * only on the last — as long as they share the flags the target reads at a statement's start
     * (foreign-key and unique checks) and no table id stands for two different tables.
     */
    private void encodeBuffered() {
        int n = buffered.size();
        int start = 0;
        while (start < n) {
            int flags = buffered.get(start).flags() & STATEMENT_FLAGS;
            Map<Long, TableMap> maps = new LinkedHashMap<>();
            int end = start; // exclusive end of the merged statement
            int stmtStart = start;
            for (int i = start; i < n; i++) {
                Change.Rows r = buffered.get(i);
                if (i == stmtStart && i > start && ((r.flags() & STATEMENT_FLAGS) != flags || clashes(maps, i))) {
                    break;
                }
                maps.putIfAbsent(r.table().tableId(), r.table());
                if (r.statementEnd() || i == n - 1) {
                    end = i + 1;
                    stmtStart = i + 1;
                }
            }
            Change.Rows first = buffered.get(start);
            for (TableMap m : maps.values()) {
                buffer.event(tableMapHeader(first, m), m.body(), checksums);
            }
            for (int i = start; i < end; i++) {
                Change.Rows r = buffered.get(i);
                // Written in place: STMT_END_F only on the merged statement's last rows event.
                buffer.rowsEvent(r.header(), r.body(), checksums, r.statementEnd() && i == end - 1);
            }
            start = end;
        }
        buffered.clear();
        bufferedBytes = 0;
    }

    /** True when the source statement starting at {@code from} maps a table id already mapped to another table. */
    private boolean clashes(Map<Long, TableMap> maps, int from) {
        for (int i = from; i < buffered.size(); i++) {
            Change.Rows r = buffered.get(i);
            TableMap known = maps.get(r.table().tableId());
            if (known != null && known != r.table() && !java.util.Arrays.equals(known.body(), r.table().body())) {
                return true;
            }
            if (r.statementEnd()) {
                return false;
            }
        }
        return false;
    }

    /** Table maps travel without their own header; one modelled on the rows event's serves. */
    private static io.binlogapplier.binlog.EventHeader tableMapHeader(Change.Rows r, TableMap m) {
        io.binlogapplier.binlog.EventHeader h = r.header();
        return new io.binlogapplier.binlog.EventHeader(h.timestamp(), 19, h.serverId(), 0, h.nextPosition(), 0);
    }

    /** Sends what is buffered. */
    void flush() throws SQLException {
        if (!statement.isEmpty()) {
            // A unit ends inside a source statement only if the source left STMT_END_F off; send it anyway.
            buffered.addAll(statement);
            statement.clear();
            statementBytes = 0;
        }
        encodeBuffered();
        if (buffer.size() == 0) {
            bufferFormat = null;
            return;
        }
        try {
            if (sentFormat != bufferFormat) {
                byte[] format = Base64.getEncoder().encode(bufferFormat);
                send(new java.io.ByteArrayInputStream(format), format.length);
                sentFormat = bufferFormat;
            }
            send(buffer.base64Stream(), buffer.base64Length());
        } catch (SQLException e) {
            if (ErrorClassifier.classify(e, Side.TARGET).action() != Classification.Action.FATAL
                || VendorCode.ER_UNKNOWN_ERROR.is(e)) {
                // ER_UNKNOWN_ERROR: MariaDB keeps the cause in its error log; the caller may retry the unit as
                // SQL to learn it.
                throw e;
            }
            throw fatal(e);
        } finally {
            buffer.reset();
            bufferFormat = null;
        }
        firstWhere = null;
    }

    /**
     * One BINLOG statement. On MariaDB the base64 text travels as a prepared-statement parameter
     * into {@code @binlog_fragment_0} (the form mariadb-binlog uses for large events) and
     * {@code BINLOG @binlog_fragment_0, @binlog_fragment_1} stays a few bytes: Connector/J scans
     * the text of every plain statement character by character, which for megabytes of base64
     * costs more than the round trip saved.
     */
    private void send(java.io.InputStream base64, int length) throws SQLException {
        if (mariadb) {
            if (setFragment == null) {
                setFragment = connection.prepareStatement("SELECT ?, '' INTO @binlog_fragment_0, @binlog_fragment_1");
            }
            // As a stream the driver sends the text as long data of type BLOB, which the server keeps
            // as binary; as bytes it arrived as a string in the connection's character set, and the
            // server scanned all of it for that (Item_param::convert_str_value: 9% of the target's CPU
            // while it applied a 1M-row transaction).
            // Encoded as the driver reads it: no array the size of the text (a BINLOG statement of 8 MB of events
            // made 11 MB of base64 to be copied into the packets and dropped).
            setFragment.setBinaryStream(1, base64, length);
            setFragment.execute();
            try (Statement s = connection.createStatement()) {
                s.execute("BINLOG @binlog_fragment_0, @binlog_fragment_1");
                requireNothingSkipped(s);
            }
        } else {
            try (Statement s = connection.createStatement()) {
                s.execute("BINLOG '" + new String(readAll(base64), java.nio.charset.StandardCharsets.US_ASCII) + "'");
                requireNothingSkipped(s);
            }
        }
    }

    /**
     * A BINLOG statement runs the target's replication code, which obeys the target's replica settings:
     * with {@code slave_skip_errors} (or {@code slave_exec_mode=IDEMPOTENT}, for a missing row) it skips a
     * row change that fails and answers OK, keeping the error only as an Error-level entry of the
     * statement's diagnostics (seen on MariaDB 10.11: {@code Query OK, 0 rows affected, 1 warning} and
     * {@code Error 1032} in SHOW WARNINGS). Such an entry is thrown as the error it is, so the unit rolls
     * back and stops as it would have without the setting. The driver asks for the diagnostics only when
     * the statement's OK packet counted a warning, so a statement without one costs no round trip.
     */
    private void requireNothingSkipped(Statement s) throws SQLException {
        if (s.getWarnings() == null) {
            return;
        }
        try (Statement show = connection.createStatement();
             java.sql.ResultSet rs = show.executeQuery("SHOW WARNINGS")) {
            while (rs.next()) {
                if ("Error".equalsIgnoreCase(rs.getString("Level"))) {
                    int code = rs.getInt("Code");
                    throw new SQLException(rs.getString("Message") + " (the target's replica settings skipped it:"
                        + " slave_skip_errors or slave_exec_mode)", "HY000", code);
                }
            }
        }
    }

    private static byte[] readAll(java.io.InputStream in) {
        try {
            return in.readAllBytes();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // a stream over memory
        }
    }

    /** Forget buffered rows (the unit is rolled back, e.g. to retry it). */
    void discard() {
        buffer.reset();
        buffered.clear();
        bufferedBytes = 0;
        statement.clear();
        statementBytes = 0;
        bufferFormat = null;
        firstWhere = null;
    }

    /** The session lost its BINLOG state (reconnect): the format must be sent again. */
    void forgetFormat() {
        sentFormat = null;
        setFragment = null;
    }

    /**
     * MariaDB reports a failed row event as error 1105 "Unknown error" and puts the cause in the
     * warnings (e.g. 1677 "Column 1 of table 'd.t' cannot be converted from type 'int' to type
     * 'tinyint'").
     */
    private List<String> warnings() {
        List<String> out = new ArrayList<>();
        try (Statement s = connection.createStatement(); java.sql.ResultSet rs = s.executeQuery("SHOW WARNINGS")) {
            while (rs.next()) {
                out.add(rs.getInt(2) + ": " + rs.getString(3));
            }
        } catch (SQLException ignored) {
            // the connection may be gone; the error itself is reported
        }
        return out;
    }

    private ApplierException fatal(SQLException e) {
        List<String> warnings = VendorCode.ER_UNKNOWN_ERROR.is(e) ? warnings() : List.of();
        for (String w : warnings) {
            int colon = w.indexOf(": "); // as warnings() writes them: "code: message"
            VendorCode code = VendorCode.of(Integer.parseInt(w.substring(0, colon)));
            if (code == VendorCode.ER_SLAVE_CONVERSION_FAILED || code == VendorCode.ER_SLAVE_CORRUPT_EVENT) {
                return new ApplierException(ExitCode.TARGET_VALUE_REJECTED, "a row change from " + firstWhere
                    + " (or a later transaction of its unit) does not fit the target (" + w.substring(colon + 2)
                    + "): the target column cannot hold the source's value: give it the source's type (SHOW CREATE"
                    + " TABLE on both) and restart", e);
            }
        }
        if (!warnings.isEmpty()) {
            e = new SQLException(e.getMessage() + "; " + String.join("; ", warnings), e.getSQLState(), e.getErrorCode(), e);
        }
        if (VendorCode.ER_SPECIFIC_ACCESS_DENIED_ERROR.is(e)) {
            return privilegeMissing(mariadb, e);
        }
        if (VendorCode.ER_KEY_NOT_FOUND.is(e)) { // a row to update or delete is missing: say which transaction
            return new ApplierException(ExitCode.TARGET_DATA_CONFLICT, "a row change from " + firstWhere
                + " (or a later transaction of its unit) found no matching row on the target (" + e.getMessage()
                + "): the target's data differs from the source's; repair or re-seed the target and restart", e);
        }
        return Messages.targetFailure(e, "BINLOG statement", firstWhere + " (or a later transaction of its unit)");
    }

    /**
     * The user may not run BINLOG statements: which features need them, and the vendor's GRANT
     * (MySQL's BINLOG_ADMIN, not MariaDB's BINLOG REPLAY).
     */
    static ApplierException privilegeMissing(boolean mariadb, SQLException e) {
        return new ApplierException(ExitCode.TARGET_PRIVILEGE, "the target user may not run BINLOG statements ("
            + e.getMessage() + "), which apply.method binlog and tables with triggers on the target need (a"
            + " trigger must not fire again for changes the source's trigger already made), as do system-versioned"
            + " tables (their history's times) and tables with a long UNIQUE key (USING HASH)"
            + (mariadb ? "" : ", and rows whose JSON holds DECIMAL or date/time values (their exact type)") + ": "
            + io.binlogapplier.privilege.TargetPrivileges.binlogGrant(mariadb, "<target user>") + ", then restart", e);
    }
}
