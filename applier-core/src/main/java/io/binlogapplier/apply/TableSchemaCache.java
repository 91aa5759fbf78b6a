package io.binlogapplier.apply;

import io.binlogapplier.transaction.StatementKind;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Target table metadata, loaded on first use and dropped after a DDL that may change it. Thread-safe:
 * shared by the scheduler and all workers; each caller loads through its own connection.
 */
public final class TableSchemaCache {
    private final ConcurrentHashMap<TableName, TableSchema> tables = new ConcurrentHashMap<>();

    /**
     * A table's schema and name; the cache's key (asked for every rows event, so no string is built to
     * look it up).
     */
    public record TableName(String schema, String table) {
    }

    /**
     * The tables some foreign key references, each with the tables that reference it, read once for
     * every table loaded until the next DDL (null: not read since): one scan of the server's foreign
     * keys, not one per table.
     */
    private volatile java.util.Map<String, java.util.List<TableName>> parents;
    private final Object parentsLock = new Object();
    /** Counts {@link #invalidateAll}: a set of parents read across one is not kept. */
    private final java.util.concurrent.atomic.AtomicLong epoch = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicLong parentScans = new java.util.concurrent.atomic.AtomicLong();

    public TableSchema get(String schema, String table, Connection c) throws SQLException {
        TableName key = new TableName(schema, table);
        TableSchema t = tables.get(key);
        if (t == null) {
            t = TableSchemaLoader.load(c, schema, table, this::referenced);
            TableSchema raced = tables.putIfAbsent(key, t);
            if (raced != null) {
                t = raced;
            }
        }
        return t;
    }

    /** The table's metadata if it is loaded now, else null; never loads (so never races a DDL). */
    public TableSchema cached(String schema, String table) {
        return tables.get(new TableName(schema, table));
    }

    private final java.util.concurrent.atomic.AtomicLong ownDdl = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A worker is about to run a DDL statement from the source (it drops this cache once the statement
     * has run): counted, so that a watch of the server's DDL counters can tell the applier's own DDL
     * from a DBA's.
     */
    public void ddlStarting() {
        ownDdl.incrementAndGet();
    }

    /** DDL statements from the source the workers have started so far. */
    public long ownDdl() {
        return ownDdl.get();
    }

    /** The schemas of the tables loaded now, each once. */
    public java.util.List<String> schemas() {
        java.util.Set<String> names = new java.util.TreeSet<>();
        for (TableName n : tables.keySet()) {
            names.add(n.schema());
        }
        return java.util.List.copyOf(names);
    }

    private boolean referenced(Connection c, String schema, String table) throws SQLException {
        return parents(c).containsKey(TableSchemaLoader.parentKey(schema, table));
    }

    /** The tables whose foreign keys reference this one (itself too, when one of its own does); empty when none. */
    public java.util.List<TableName> children(String schema, String table, Connection c) throws SQLException {
        return parents(c).getOrDefault(TableSchemaLoader.parentKey(schema, table), java.util.List.of());
    }

    private java.util.Map<String, java.util.List<TableName>> parents(Connection c) throws SQLException {
        java.util.Map<String, java.util.List<TableName>> p = parents;
        if (p == null) {
            synchronized (parentsLock) {
                p = parents;
                if (p == null) {
                    long before = epoch.get();
                    p = TableSchemaLoader.referencedTables(c);
                    parentScans.incrementAndGet();
                    if (epoch.get() == before) {
                        parents = p;
                    }
                }
            }
        }
        return p;
    }

    /** How often the server's foreign keys were read to find the parent tables (tests). */
    long parentScans() {
        return parentScans.get();
    }

    /**
     * Forget what a DDL statement from the source may have changed, once it has run on the target (before
     * any later unit starts): the foreign keys between tables, every table a foreign key links or that has
     * triggers (a {@code DROP FOREIGN KEY} or {@code DROP TRIGGER} does not name it), every table whose
     * name is a word of the statement's text (a plain name is written as it is, quoted or not; compared
     * without case; a word that merely looks like a name, in a string or a comment, costs one read too
     * many, never one too few), and every table whose name is not plain ASCII letters, digits, {@code _}
     * and {@code $} (the statement's bytes may spell it otherwise). A statement that may change tables it
     * does not name ({@code DROP DATABASE}, {@link StatementKind#namesTheTablesItChanges}) forgets
     * everything. Reading every table again after each DDL cost a few ms a table: 100 CREATE TABLEs
     * among changes to 100 tables took 28 s to apply. (The statement's bytes are split on anything but
     * ASCII letters, digits, {@code _} and {@code $}, whatever its character set: enough for plain names.
     * {@code DdlWitness.names} splits decoded text more widely, for names in the InnoDB dictionary.)
     */
    public void invalidateAfter(byte[] sql) {
        if (!StatementKind.namesTheTablesItChanges(sql)) {
            invalidateAll();
            return;
        }
        java.util.Set<String> words = new java.util.HashSet<>();
        for (String w : new String(sql, java.nio.charset.StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT)
            .split("[^a-z0-9_$]+")) {
            words.add(w);
        }
        epoch.incrementAndGet();
        parents = null;
        tables.values().removeIf(t -> t.linkedByForeignKeys() || t.hasTriggers() || !plainName(t.table())
            || words.contains(t.table().toLowerCase(java.util.Locale.ROOT)));
    }

    private static boolean plainName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$')) {
                return false;
            }
        }
        return !name.isEmpty();
    }

    /** Forget everything: called once a DDL has run on the target (before any later unit starts). */
    public void invalidateAll() {
        epoch.incrementAndGet();
        parents = null;
        tables.clear();
    }
}
