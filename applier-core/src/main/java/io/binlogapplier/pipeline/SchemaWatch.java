package io.binlogapplier.pipeline;

import io.binlogapplier.apply.TableSchemaCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Notices DDL run on the target by someone else while the applier runs, on thread {@code
 * applier-<name>-schema-watch}, and drops the cached table definitions ({@link TableSchemaCache}) so
 * that they are read again. The applier drops them after every DDL it applies itself, but a trigger,
 * a foreign key or a unique key a DBA adds on the target would otherwise stay unknown until the next
 * start: under the SQL method the rows of a table that has gained a trigger would go as statements
 * that fire it (instead of BINLOG statements, which do not), and a net effect would turn an UPDATE of
 * a table that has become a foreign key's parent into a DELETE that cascades.
 *
 * <p>Every {@link #POLL_MILLIS} it reads the server's counters of DDL statements begun ({@code
 * Com_alter_table}, {@code Com_create_trigger} and the like: one cheap query), and when they moved it
 * drops the cache. A counter moves when a DDL begins, and the DDL may still wait for a table's
 * metadata lock when it is seen; so for {@link #FOLLOW_NANOS} after a move it also reads what the
 * cached schemas' triggers, foreign keys and unique keys are, and drops the cache again when
 * that changes (once the DDL completes). A unit that writes a table holds its metadata lock from its
 * first row to its commit, so a DDL on that table completes before the unit's first row or after its
 * commit, never in between; what is left is the time from the DDL's completion to the next reading,
 * at most {@link #POLL_MILLIS}, in which a unit may start with the old definition. Reading fails
 * quietly (the watch tries again at the next poll): the applier's own work is never stopped by it.
 */
final class SchemaWatch implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SchemaWatch.class);
    static final long POLL_MILLIS = 250;
    static final long FOLLOW_NANOS = 60_000_000_000L;

    private static final String COUNTERS = "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_alter_table',"
        + " 'Com_create_table', 'Com_drop_table', 'Com_rename_table', 'Com_create_trigger', 'Com_drop_trigger',"
        + " 'Com_create_index', 'Com_drop_index')";

    private final Connection connection;
    private final TableSchemaCache schemas;
    private final Runnable changed;
    private final StopSignal stop = new StopSignal();
    private final Thread thread;

    /**
     * @param connection owned from here on: closed (or cut) when the watch ends
     * @param changed told each time the cache is dropped for a change seen here
     */
    SchemaWatch(String name, Connection connection, TableSchemaCache schemas, Runnable changed) {
        this.connection = connection;
        this.schemas = schemas;
        this.changed = changed;
        this.thread = new Thread(this::run, "applier-" + name + "-schema-watch");
        thread.setDaemon(true);
    }

    /**
     * Reads the counters a first time, then watches. Any definition cached before (by an earlier
     * pipeline of this run, before a reconnect) is dropped: DDL may have run while none watched.
     */
    void start() {
        try {
            connection.setAutoCommit(true);
            counters = counters();
            ownSeen = schemas.ownDdl();
            lastOwn = ownSeen;
        } catch (SQLException e) {
            log.debug("cannot read the target's DDL counters: {}", e.getMessage());
        }
        schemas.invalidateAll();
        thread.start();
    }

    /** The counters and the workers' own DDL count when the watch started. */
    private long counters = -1;
    private long ownSeen;
    /** The most the counters have run ahead of the workers' own DDL (a DBA's DDL raises it). */
    private long maxExcess;
    private long lastOwn;
    private int quiet;

    private void run() {
        long followUntil = 0;
        String definitions = null;
        try {
            while (!stop.await(POLL_MILLIS)) {
                try {
                    // The applier's own DDL moves the counters too, and drops the definitions itself: only moves
                    // beyond the DDL its workers started are someone else's (following them costs the target
                    // queries). Counters first: a DDL of ours is counted by the workers before the server counts it.
                    long now = counters();
                    long own = schemas.ownDdl();
                    if (counters >= 0) {
                        long excess = (now - counters) - (own - ownSeen);
                        if (excess > maxExcess) {
                            followUntil = System.nanoTime() + FOLLOW_NANOS;
                            definitions = null;
                            drop("DDL began on the target");
                            maxExcess = excess;
                        }
                        // Some DDL of ours moves none of these counters (CREATE DATABASE, a view, a grant): once the
                        // workers have started none for a while, start afresh from what the counters say now, so
                        // that such statements do not hide a DBA's later DDL.
                        quiet = own == lastOwn ? quiet + 1 : 0;
                        lastOwn = own;
                        if (quiet >= 2) {
                            maxExcess = excess;
                        }
                    } else {
                        counters = now;
                        ownSeen = own;
                    }
                    if (followUntil != 0 && System.nanoTime() - followUntil < 0) {
                        String d = definitions(schemas.schemas());
                        if (definitions != null && !definitions.equals(d)) {
                            drop("the definitions of tables the applier writes changed on the target");
                        }
                        definitions = d;
                    } else {
                        followUntil = 0;
                        definitions = null;
                    }
                } catch (SQLException e) {
                    log.debug("cannot read the target's DDL counters or definitions: {}", e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drop(String why) {
        schemas.invalidateAll();
        log.debug("{}: table definitions will be read again", why);
        changed.run();
    }

    private long counters() throws SQLException {
        long sum = 0;
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(COUNTERS)) {
            while (rs.next()) {
                sum += rs.getLong(2);
            }
        }
        return sum;
    }

    /** What decides how rows of the tables of {@code names} are applied, as one text to compare. */
    private String definitions(List<String> names) throws SQLException {
        if (names.isEmpty()) {
            return "";
        }
        String in = String.join(", ", java.util.Collections.nCopies(names.size(), "?"));
        String sql = "SELECT 't', EVENT_OBJECT_SCHEMA, EVENT_OBJECT_TABLE, TRIGGER_NAME, CONCAT(ACTION_TIMING, ' ',"
            + " EVENT_MANIPULATION) FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA IN (" + in + ")"
            + " UNION ALL SELECT 'f', CONSTRAINT_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, CONCAT(UNIQUE_CONSTRAINT_SCHEMA,"
            + " '.', REFERENCED_TABLE_NAME, ' ', UPDATE_RULE, ' ', DELETE_RULE) FROM information_schema.REFERENTIAL_CONSTRAINTS"
            + " WHERE CONSTRAINT_SCHEMA IN (" + in + ") OR UNIQUE_CONSTRAINT_SCHEMA IN (" + in + ")"
            + " UNION ALL SELECT 'u', TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, CONCAT(SEQ_IN_INDEX, ' ', COLUMN_NAME)"
            + " FROM information_schema.STATISTICS WHERE NON_UNIQUE = 0 AND TABLE_SCHEMA IN (" + in + ")"
            + " ORDER BY 1, 2, 3, 4, 5";
        StringBuilder sb = new StringBuilder();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            int p = 1;
            for (int copy = 0; copy < 4; copy++) {
                for (String n : names) {
                    ps.setString(p++, n);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    for (int i = 1; i <= 5; i++) {
                        sb.append(rs.getString(i)).append('\u001f');
                    }
                    sb.append('\n');
                }
            }
        }
        return sb.toString();
    }

    @Override
    public void close() {
        Exception e = WatchThreads.end(stop, thread, connection, 1_000);
        if (e != null) {
            log.debug("closing the schema watch connection: {}", e.toString());
        }
    }
}
