package io.binlogapplier.transaction;

import java.util.Locale;

/**
 * Classifies a QUERY event's statement by its first keywords. Pure.
 */
public enum StatementKind {
    /** BEGIN / START TRANSACTION (MySQL writes "BEGIN"; MariaDB before 10.x too). */
    BEGIN,
    /** COMMIT: ends a transaction of non-transactional changes. */
    COMMIT,
    /** ROLLBACK: ends a transaction whose non-transactional changes must stay. */
    ROLLBACK,
    /** SAVEPOINT, ROLLBACK TO, RELEASE SAVEPOINT: run inside the transaction. */
    SAVEPOINT,
    /** XA START/END/PREPARE/COMMIT/ROLLBACK: not supported. */
    XA,
    /** DML in statement format (INSERT, UPDATE, DELETE, REPLACE …): runs inside the transaction. */
    DML,
    /** Temporary-table DDL, which does not commit implicitly. */
    TEMPORARY_DDL,
    /** Everything else (CREATE, ALTER, DROP, RENAME, TRUNCATE, GRANT …): commits implicitly. */
    DDL;

    /**
     * The kind of a statement's text, read from its first 256 bytes as the assembler reads a query event
     * ({@code BinlogEvent.Query.sqlForClassification}): the words that decide it come first, and a
     * statement may be megabytes long.
     */
    public static StatementKind of(byte[] sql) {
        return of(head(sql));
    }

    /** The statement's first 256 bytes, as text whose ASCII keywords read the same in any of its character sets. */
    private static String head(byte[] sql) {
        return new String(sql, 0, Math.min(sql.length, 256), java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    public static StatementKind of(String sql) {
        String s = stripLeadingComments(sql).toUpperCase(Locale.ROOT);
        String first = word(s, 0);
        switch (first) {
            case "BEGIN":
                return BEGIN;
            case "COMMIT":
                return COMMIT;
            case "SAVEPOINT":
                return SAVEPOINT;
            case "RELEASE":
                return SAVEPOINT;
            case "XA":
                return XA;
            case "ROLLBACK": {
                String next = word(s, first.length());
                return next.equals("TO") ? SAVEPOINT : ROLLBACK;
            }
            case "START":
                return word(s, first.length()).equals("TRANSACTION") ? BEGIN : DDL;
            case "INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD", "SELECT", "DO", "CALL", "WITH", "SET", "HANDLER":
                return DML;
            case "CREATE", "DROP": {
                String next = word(s, first.length());
                if (next.equals("TEMPORARY")) {
                    return TEMPORARY_DDL;
                }
                return DDL;
            }
            default:
                return DDL;
        }
    }

    /**
     * Whether the statement sets or releases a savepoint ({@code SAVEPOINT x}, {@code RELEASE SAVEPOINT x}):
     * without a later {@code ROLLBACK TO} it changes nothing. Pure.
     */
    public static boolean marksSavepoint(byte[] sql) {
        String s = stripLeadingComments(head(sql)).toUpperCase(Locale.ROOT);
        String first = word(s, 0);
        return first.equals("SAVEPOINT") || first.equals("RELEASE") && word(s, first.length()).equals("SAVEPOINT");
    }

    /**
     * Whether a statement that commits by itself (a {@link #DDL}) is known to leave every table's
     * definition as it was: its columns, keys, engine, triggers and foreign keys. These are the account
     * statements ({@code GRANT}, {@code REVOKE}, {@code CREATE}, {@code ALTER}, {@code DROP} and
     * {@code RENAME USER}, {@code CREATE} and {@code DROP ROLE}), table maintenance ({@code ANALYZE},
     * {@code OPTIMIZE}, {@code REPAIR}, {@code TRUNCATE}, which may rebuild a table but not change its
     * definition), {@code FLUSH} and {@code CREATE DATABASE}. The applier keeps the table definitions it has read
     * across them, where any other DDL makes it read them again. Anything not listed here counts as
     * changing definitions. Pure; reads the statement's first words as {@link #of(String)} does.
     */
    public static boolean keepsTableDefinitions(byte[] sql) {
        return keepsTableDefinitions(head(sql));
    }

    static boolean keepsTableDefinitions(String sql) {
        String s = stripLeadingComments(sql).toUpperCase(Locale.ROOT);
        String first = word(s, 0);
        String object = object(s, first);
        switch (first) {
            case "GRANT", "REVOKE", "ANALYZE", "OPTIMIZE", "REPAIR", "FLUSH", "TRUNCATE":
                return true;
            case "CREATE":
                // not CREATE OR REPLACE DATABASE, which drops the tables of the one it replaces
                return object.equals("USER") || object.equals("ROLE")
                    || (object.equals("DATABASE") || object.equals("SCHEMA")) && !orReplace(s, first);
            case "DROP":
                return object.equals("USER") || object.equals("ROLE");
            case "ALTER", "RENAME":
                return object.equals("USER");
            default:
                return false;
        }
    }

    /** The word after {@code first} (upper-cased text {@code s}), past an {@code OR REPLACE}: the kind of object. */
    private static String object(String s, String first) {
        if (!orReplace(s, first)) {
            return word(s, first.length());
        }
        int replace = s.indexOf("REPLACE", first.length());
        return word(s, replace + "REPLACE".length());
    }

    private static boolean orReplace(String s, String first) {
        return word(s, first.length()).equals("OR") && s.indexOf("REPLACE", first.length()) >= 0;
    }

    /**
     * Whether a DDL statement names, somewhere in its text, every table whose definition it may change,
     * foreign keys and triggers aside: {@code CREATE}, {@code ALTER}, {@code DROP} and {@code RENAME} of
     * a table, index, view, trigger, routine and the like. A table's foreign keys change with a statement
     * that names only the other table ({@code DROP TABLE child}, {@code ALTER TABLE child DROP FOREIGN
     * KEY}), and its triggers with {@code DROP TRIGGER name}: callers forget such tables whatever the text
     * says. Not so: a statement about a whole database ({@code DROP DATABASE}, {@code ALTER DATABASE}),
     * and every other kind, which may change any table. Pure; reads the first words as {@link #of(String)}.
     */
    public static boolean namesTheTablesItChanges(byte[] sql) {
        String s = stripLeadingComments(head(sql)).toUpperCase(Locale.ROOT);
        String first = word(s, 0);
        if (!first.equals("CREATE") && !first.equals("ALTER") && !first.equals("DROP") && !first.equals("RENAME")) {
            return false;
        }
        String object = object(s, first);
        return !object.equals("DATABASE") && !object.equals("SCHEMA") && !object.isEmpty();
    }

    private static final byte[] START_TRANSACTION = " START TRANSACTION".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * MySQL 8.0.21+ logs {@code CREATE TABLE ... SELECT} under row format as one transaction (WL#13355):
     * the QUERY event is the new table's definition followed by {@code START TRANSACTION}, then come
     * the rows and the XID, with no BEGIN. The clause is binlog-only syntax (MySQL allows nothing
     * but BINLOG, COMMIT and ROLLBACK after it; MariaDB does not parse it).
     *
     * @return the length of {@code sql} without the trailing clause, or -1 when this is not such a statement
     */
    public static int createStartingTransaction(String head, byte[] sql) {
        String s = stripLeadingComments(head).toUpperCase(Locale.ROOT);
        if (!word(s, 0).equals("CREATE") || !word(s, "CREATE".length()).equals("TABLE")) {
            return -1;
        }
        int end = sql.length;
        while (end > 0 && (sql[end - 1] == ';' || Character.isWhitespace(sql[end - 1]))) {
            end--;
        }
        int from = end - START_TRANSACTION.length;
        if (from < 0) {
            return -1;
        }
        for (int i = 0; i < START_TRANSACTION.length; i++) {
            byte b = sql[from + i];
            byte want = START_TRANSACTION[i];
            boolean same = want == ' ' ? Character.isWhitespace(b) : Character.toUpperCase(b) == want;
            if (!same) {
                return -1;
            }
        }
        return from;
    }

    /** Skips white space and comments, but not MySQL's executable comments {@code /*!…}. */
    static String stripLeadingComments(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                if (i + 2 < n && (sql.charAt(i + 2) == '!' || sql.charAt(i + 2) == 'M' && i + 3 < n
                    && sql.charAt(i + 3) == '!')) {
                    // Executable comment: its body is the statement. Skip the marker and version digits.
                    int j = i + (sql.charAt(i + 2) == '!' ? 3 : 4);
                    while (j < n && Character.isDigit(sql.charAt(j))) {
                        j++;
                    }
                    i = j;
                    continue;
                }
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '#' || c == '-' && i + 2 < n && sql.charAt(i + 1) == '-'
                && Character.isWhitespace(sql.charAt(i + 2))) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else {
                break;
            }
        }
        return sql.substring(i);
    }

    private static String word(String s, int from) {
        int i = from;
        int n = s.length();
        while (i < n && (Character.isWhitespace(s.charAt(i)) || s.charAt(i) == ';')) {
            i++;
        }
        int start = i;
        while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        return s.substring(start, i);
    }

    public boolean implicitCommit() {
        return this == DDL;
    }
}
