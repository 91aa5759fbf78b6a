package io.binlogapplier.transaction;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.binlog.BinlogEvent;
import io.binlogapplier.binlog.EventHeader;
import io.binlogapplier.binlog.TableMap;
import io.binlogapplier.position.BinlogCoordinates;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Groups binlog events into {@link Transaction}s: GTID .. XID/COMMIT, MariaDB's implicit-BEGIN
 * groups and standalone DDL, MySQL's BEGIN .. XID and lone DDL, empty transactions, compressed
 * MySQL payloads. Pure: events in, transactions out through a {@link Sink}; no I/O, one thread.
 *
 * <p>Transactions larger than {@code partBytes} are emitted in parts as they arrive, so a huge
 * transaction never sits whole in memory.
 */
public final class TransactionAssembler {

    /** Receives what the stream means. Methods may block (back-pressure). */
    public interface Sink {
        void transaction(Transaction part) throws InterruptedException;

        /** The source is idle: nothing after {@code position}, as of {@code timestampSeconds}. */
        void heartbeat(BinlogCoordinates position, long timestampSeconds) throws InterruptedException;

        /** The stream passed {@code position} (after each event), for --until and progress. */
        default void passed(BinlogCoordinates position) throws InterruptedException {
        }
    }

    private enum State { IDLE, AFTER_GTID, IN_TRANSACTION }

    private final Sink sink;
    private final UnaryOperator<Transaction> filter;
    private final long partBytes;
    private final Map<Long, TableMap> tableMaps = new HashMap<>();

    private String file;
    private BinlogEvent.FormatDescription format;
    private State state = State.IDLE;
    private long sequence;

    // the transaction being assembled
    private BinlogEvent.Gtid gtid;
    private TransactionHead head;
    private boolean standalone;
    private int part;
    private List<Change> changes = new ArrayList<>();
    private long bytes;
    private boolean implicitCommit;
    private boolean hasStatements;
    /** Some statement of the transaction is not a SAVEPOINT or RELEASE SAVEPOINT (see {@link #finish}). */
    private boolean otherStatements;

    // statement-format context for the next statement
    private Long insertId;
    private Long lastInsertId;
    private long[] randSeeds;

    /**
     * @param file the binlog file the stream starts in (a ROTATE event corrects it)
     * @param partBytes size above which a transaction is passed on in parts
     */
    public TransactionAssembler(String file, long partBytes, Sink sink) {
        this(file, partBytes, sink, UnaryOperator.identity());
    }

    /** @param filter applied to every transaction part before the sink sees it (the statement filter) */
    public TransactionAssembler(String file, long partBytes, Sink sink, UnaryOperator<Transaction> filter) {
        this.file = file;
        this.partBytes = partBytes;
        this.sink = sink;
        this.filter = filter;
    }

    public void accept(BinlogEvent event) throws InterruptedException {
        if (event instanceof BinlogEvent.Payload p) {
            // MySQL compressed transaction: its inner events carry no positions of their own.
            for (BinlogEvent inner : p.inner()) {
                handle(inner, p.header());
            }
            passed(p.header(), p.header().nextPosition());
            return;
        }
        handle(event, event.header());
        // The ROTATE that ends a file carries that file's end as its position, but the file to come is
        // already current: what the stream passed is the start of the next file. (Paired, the new name
        // and the old offset made a position far ahead, and --until current stopped at the first
        // rotation whenever the old file was longer than the offset of the until.)
        passed(event.header(), event instanceof BinlogEvent.Rotate r ? r.position() : event.header().nextPosition());
    }

    /** Tells the sink the stream passed {@code offset} of the current file (after an event {@code h} heads). */
    private void passed(EventHeader h, long offset) throws InterruptedException {
        if (!h.artificial() && state == State.IDLE) {
            sink.passed(new BinlogCoordinates(file, offset));
        }
    }

    private void handle(BinlogEvent event, EventHeader positionHeader) throws InterruptedException {
        if (event instanceof BinlogEvent.Rotate r) {
            rotate(r);
        } else if (event instanceof BinlogEvent.FormatDescription f) {
            tableMaps.clear();
            format = f;
        } else if (event instanceof BinlogEvent.Gtid g) {
            gtid(g);
        } else if (event instanceof BinlogEvent.Query q) {
            query(q, positionHeader);
        } else if (event instanceof BinlogEvent.Xid x) {
            requireIn(State.IN_TRANSACTION, x);
            finish(positionHeader, false);
        } else if (event instanceof BinlogEvent.TableMapped t) {
            tableMaps.put(t.map().tableId(), t.map());
        } else if (event instanceof BinlogEvent.Rows r) {
            rows(r);
        } else if (event instanceof BinlogEvent.IntVar v) {
            if (v.kind() == BinlogEvent.IntVar.INSERT_ID) {
                insertId = v.value();
            } else {
                lastInsertId = v.value();
            }
        } else if (event instanceof BinlogEvent.Rand r) {
            randSeeds = new long[] {r.seed1(), r.seed2()};
        } else if (event instanceof BinlogEvent.Heartbeat h) {
            if (state == State.IDLE && h.header().nextPosition() > 0) {
                String f = h.file() != null && !h.file().isEmpty() ? h.file() : file;
                sink.heartbeat(new BinlogCoordinates(f, h.header().nextPosition()), h.header().timestamp());
            }
        } else if (event instanceof BinlogEvent.Payload p) {
            throw protocol("a compressed payload inside a compressed payload", p);
        } else if (event instanceof BinlogEvent.Unsupported u) {
            throw new ApplierException(ExitCode.SOURCE_UNSUPPORTED,
                "the source sent " + u.what() + " at " + new BinlogCoordinates(file, u.header().nextPosition())
                    + ", which binlog-applier cannot apply: " + u.fix());
        }
        // BinlogEvent.Ignorable: nothing to apply
    }

    private void rotate(BinlogEvent.Rotate r) {
        if (state != State.IDLE) {
            throw protocol("a ROTATE inside a transaction", r);
        }
        file = r.file();
        tableMaps.clear();
    }

    private void gtid(BinlogEvent.Gtid g) {
        if (state != State.IDLE) {
            throw protocol("a GTID event before the previous transaction ended", g);
        }
        gtid = g;
        boolean mariadb = g.gtid() instanceof io.binlogapplier.position.SourceGtid.Mariadb;
        // Only MariaDB's flags2 are MariaDB flags: a MySQL GTID event without a logical clock (5.6)
        // has flags 1 (may have statement-based changes), which must not read as FL_STANDALONE.
        CommitGroup group = new CommitGroup(g.commitId(), g.lastCommitted(), g.sequenceNumber(), file,
            mariadb ? g.flags() : 0);
        head = new TransactionHead(++sequence, g.gtid(), group, new BinlogCoordinates(file, start(g.header())),
            g.header().timestamp(), format);
        standalone = g.standalone();
        // MariaDB: a GTID without FL_STANDALONE opens the group itself (no BEGIN follows since 10.0);
        // MySQL: BEGIN follows, or a DDL statement alone.
        state = mariadb && !standalone ? State.IN_TRANSACTION : State.AFTER_GTID;
    }

    private static long start(EventHeader h) {
        return Math.max(4, h.nextPosition() - h.eventLength());
    }

    private void query(BinlogEvent.Query q, EventHeader positionHeader) throws InterruptedException {
        StatementKind kind = StatementKind.of(q.sqlForClassification());
        switch (kind) {
            case BEGIN -> {
                if (state == State.IN_TRANSACTION) {
                    // MariaDB before 10.0 style: GTID then BEGIN; harmless.
                    return;
                }
                if (state == State.IDLE) {
                    head = new TransactionHead(++sequence, null, CommitGroup.NONE,
                        new BinlogCoordinates(file, start(q.header())), q.header().timestamp(), format);
                    gtid = null;
                }
                state = State.IN_TRANSACTION;
            }
            case COMMIT -> {
                requireIn(State.IN_TRANSACTION, q);
                finish(positionHeader, false);
            }
            case ROLLBACK -> {
                requireIn(State.IN_TRANSACTION, q);
                finish(positionHeader, true);
            }
            case XA -> throw new ApplierException(ExitCode.SOURCE_UNSUPPORTED, "the source sent an XA statement at "
                + new BinlogCoordinates(file, q.header().nextPosition())
                + ", which binlog-applier cannot apply (it does not apply XA transactions, committed or not): let the native"
                + " replica apply this part of the binlog (handback, then adopt: docs/migration.md), or set-position past"
                + " it if the target must not have it");
            default -> {
                if (state == State.IDLE) {
                    // A statement on its own, without GTID (sources without GTIDs log DDL like this).
                    head = new TransactionHead(++sequence, null, CommitGroup.NONE,
                        new BinlogCoordinates(file, start(q.header())), q.header().timestamp(), format);
                    gtid = null;
                    standalone = true;
                }
                int ctas = kind == StatementKind.DDL && state != State.IN_TRANSACTION
                    ? StatementKind.createStartingTransaction(q.sqlForClassification(), q.sql()) : -1;
                if (ctas >= 0) {
                    // MySQL 8.0.21+ CREATE TABLE ... SELECT: the DDL opens the transaction its rows and XID
                    // end. The target runs the plain CREATE TABLE (see StatementKind); the unit stays a
                    // DDL barrier whose pending row makes a replay skip the table already created.
                    addStatement(q, kind, java.util.Arrays.copyOf(q.sql(), ctas));
                    state = State.IN_TRANSACTION;
                    standalone = false;
                    return;
                }
                addStatement(q, kind, q.sql());
                if (state != State.IN_TRANSACTION) {
                    // Standalone: MariaDB FL_STANDALONE group, MySQL DDL after its GTID, or a lone statement.
                    finish(positionHeader, false);
                }
            }
        }
    }

    private void addStatement(BinlogEvent.Query q, StatementKind kind, byte[] sql) throws InterruptedException {
        boolean implicit = kind.implicitCommit();
        Change.Statement s = new Change.Statement(q.database(), sql, q.status(), implicit, q.header().timestamp(),
            insertId, lastInsertId, randSeeds, sql.length + 64L);
        insertId = null;
        lastInsertId = null;
        randSeeds = null;
        implicitCommit |= implicit;
        hasStatements = true;
        otherStatements |= !StatementKind.marksSavepoint(sql);
        add(s);
    }

    private void rows(BinlogEvent.Rows r) throws InterruptedException {
        requireIn(State.IN_TRANSACTION, r);
        TableMap map = tableMaps.get(r.tableId());
        if (map == null) {
            throw protocol("a rows event for table id " + r.tableId() + " without its TABLE_MAP", r);
        }
        add(new Change.Rows(map, r.kind(), r.flags(), r.beforeColumns(), r.afterColumns(), r.rows(), r.sizeBytes(),
            r.body() == null ? null : r.header(), r.body()));
    }

    private void add(Change change) throws InterruptedException {
        changes.add(change);
        bytes += change.sizeBytes();
        if (bytes >= partBytes && state == State.IN_TRANSACTION) {
            sink.transaction(filter.apply(new Transaction(head, part++, List.copyOf(changes), bytes, null,
                implicitCommit, hasStatements)));
            changes = new ArrayList<>();
            bytes = 0;
        }
    }

    private void finish(EventHeader end, boolean rollback) throws InterruptedException {
        long commitMicros = gtid != null && gtid.commitMicros() > 0 ? gtid.commitMicros() : end.timestamp() * 1_000_000L;
        TransactionEnd te = new TransactionEnd(new BinlogCoordinates(file, end.nextPosition()), commitMicros, rollback);
        List<Change> all = changes;
        boolean statements = hasStatements;
        if (statements && !otherStatements && part == 0) {
            // Its only statements are SAVEPOINT and RELEASE SAVEPOINT, which MariaDB logs inside a transaction
            // (an ORM's nested transaction). Without a ROLLBACK TO (logged only where a non-transactional table
            // changed; InnoDB's rolled-back rows leave the log) they change nothing, so the transaction goes as
            // rows alone: as a statement it was a unit of its own, with every worker drained before it.
            all = new ArrayList<>(changes.size());
            for (Change c : changes) {
                if (!(c instanceof Change.Statement)) {
                    all.add(c);
                }
            }
            statements = false;
        }
        Transaction t = new Transaction(head, part, List.copyOf(all), bytes, te, implicitCommit, statements);
        reset();
        sink.transaction(filter.apply(t));
    }

    private void reset() {
        state = State.IDLE;
        gtid = null;
        head = null;
        standalone = false;
        part = 0;
        changes = new ArrayList<>();
        bytes = 0;
        implicitCommit = false;
        hasStatements = false;
        otherStatements = false;
    }

    private void requireIn(State expected, BinlogEvent e) {
        if (state == State.AFTER_GTID && expected == State.IN_TRANSACTION && e instanceof BinlogEvent.Rows) {
            // MySQL without BEGIN is impossible; MariaDB standalone groups have no rows.
            throw protocol("rows outside a transaction", e);
        }
        if (state != expected) {
            throw protocol(e.getClass().getSimpleName() + " while " + state, e);
        }
    }

    private ApplierException protocol(String what, BinlogEvent e) {
        return new ApplierException(ExitCode.SOURCE_UNSUPPORTED, "unexpected binlog sequence at "
            + new BinlogCoordinates(file, e.header().nextPosition()) + ": " + what
            + " (a source bug or a stream started mid-transaction); restart from a transaction boundary");
    }

    /** The binlog file the stream is in now. */
    public String file() {
        return file;
    }

    /** True between transactions. */
    public boolean idle() {
        return state == State.IDLE;
    }
}
