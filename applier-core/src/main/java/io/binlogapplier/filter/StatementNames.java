package io.binlogapplier.filter;

import io.binlogapplier.filter.SqlTokens.Token;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Finds what a statement is about, for the filter: the tables (or schemas) it changes, and where
 * a schema qualifies a name in a place that is certainly a table, schema or routine name (so it
 * can be renamed safely). Understands the DDL forms MySQL and MariaDB log
 * ({@code CREATE/ALTER/DROP/RENAME/TRUNCATE TABLE}, {@code CREATE/DROP INDEX … ON}, databases,
 * views, triggers, routines, events, sequences, {@code ANALYZE/OPTIMIZE/REPAIR TABLE}), account
 * statements, and single-table statement-format {@code INSERT/REPLACE/UPDATE/DELETE}. Anything
 * else is {@link Parsed#understood() not understood}. Pure.
 */
final class StatementNames extends TokenCursor {

    /** What a name in a statement decides. */
    enum Kind {
        /** A table (or view, sequence) the statement changes: the filter's table rules decide. */
        TABLE,
        /** A schema the statement changes as a whole (database DDL, routines): the schema rules decide. */
        SCHEMA,
        /** A name the statement only refers to (FOREIGN KEY parent, LIKE, GRANT ON): renamed, never decides. */
        REFERENCE
    }

    /**
     * @param schema the schema as written, or null when the default database applies
     * @param object the table (or other object) name; null for a schema itself
     * @param qualifier the token naming the schema (replaced when it is renamed), or null
     */
    record Ref(Kind kind, String schema, String object, Token qualifier) {
    }

    /**
     * @param refs every name found, in statement order
     * @param account an account-management statement (GRANT, CREATE USER …): a change to {@code mysql}
     * @param understood false when the statement's form is not one of those this class knows
     */
    record Parsed(List<Ref> refs, boolean account, boolean understood) {
        static final Parsed UNKNOWN = new Parsed(List.of(), false, false);
    }

    private static final Set<String> PREFIX = Set.of("OR", "REPLACE", "ALGORITHM", "UNDEFINED", "MERGE", "TEMPTABLE",
        "DEFINER", "CURRENT_USER", "SQL", "SECURITY", "INVOKER", "TEMPORARY", "UNIQUE", "FULLTEXT", "SPATIAL",
        "AGGREGATE", "ONLINE", "OFFLINE", "IGNORE", "NONBLOCKING");
    private static final Set<String> DATABASE_OPTIONS = Set.of("DEFAULT", "CHARACTER", "CHARSET", "COLLATE",
        "ENCRYPTION", "READ", "COMMENT", "UPGRADE");
    private static final Set<String> SINGLE_TABLE_DELETE_END = Set.of("WHERE", "ORDER", "LIMIT", "RETURNING",
        "PARTITION");

    private final List<Ref> refs = new ArrayList<>();

    private StatementNames(List<Token> tokens) {
        super(tokens);
    }

    static Parsed parse(List<Token> tokens) {
        try {
            return new StatementNames(tokens).statement();
        } catch (NotUnderstood e) {
            return Parsed.UNKNOWN;
        }
    }

    private Parsed statement() {
        Token first = next();
        if (first == null || first.type() != SqlTokens.Type.WORD) {
            return Parsed.UNKNOWN;
        }
        switch (first.text().toUpperCase(java.util.Locale.ROOT)) {
            case "CREATE":
                return create();
            case "ALTER":
                return alter();
            case "DROP":
                return drop();
            case "RENAME":
                if (acceptWord("USER")) {
                    return account();
                }
                requireWord("TABLE", "TABLES");
                skipIfExists();
                do {
                    name(Kind.TABLE);
                    if (acceptWord("WAIT")) {
                        next();
                    } else {
                        acceptWord("NOWAIT");
                    }
                    requireWord("TO");
                    name(Kind.TABLE);
                } while (acceptPunct(','));
                return done();
            case "TRUNCATE":
                acceptWord("TABLE");
                name(Kind.TABLE);
                return done();
            case "ANALYZE", "OPTIMIZE", "REPAIR":
                if (!acceptWord("NO_WRITE_TO_BINLOG")) {
                    acceptWord("LOCAL");
                }
                requireWord("TABLE", "TABLES");
                names(Kind.TABLE);
                return done();
            case "GRANT", "REVOKE":
                grantTarget();
                return account();
            case "SET":
                if (acceptWord("PASSWORD") || acceptWord("DEFAULT") && acceptWord("ROLE")) {
                    return account();
                }
                return Parsed.UNKNOWN;
            case "INSERT", "REPLACE":
                while (acceptWord("LOW_PRIORITY") || acceptWord("DELAYED") || acceptWord("HIGH_PRIORITY")
                    || acceptWord("IGNORE")) {
                    // modifiers
                }
                acceptWord("INTO");
                name(Kind.TABLE);
                return done();
            case "UPDATE": {
                while (acceptWord("LOW_PRIORITY") || acceptWord("IGNORE")) {
                    // modifiers
                }
                name(Kind.TABLE);
                acceptWord("AS");
                if (!peekWord("SET") && peek() != null && peek().identifier()) {
                    next(); // alias
                }
                requireWord("SET");
                return done();
            }
            case "DELETE": {
                while (acceptWord("LOW_PRIORITY") || acceptWord("QUICK") || acceptWord("IGNORE")) {
                    // modifiers
                }
                requireWord("FROM");
                name(Kind.TABLE);
                Token after = peek();
                if (after != null && !(after.type() == SqlTokens.Type.WORD
                    && SINGLE_TABLE_DELETE_END.contains(after.text().toUpperCase(java.util.Locale.ROOT)))) {
                    throw new NotUnderstood(); // multi-table DELETE
                }
                return done();
            }
            default:
                return Parsed.UNKNOWN;
        }
    }

    private Parsed create() {
        String object = objectKeyword();
        switch (object) {
            case "TABLE", "SEQUENCE" -> {
                skipIfExists();
                name(Kind.TABLE);
                if (acceptWord("LIKE") || acceptPunct('(') && acceptWord("LIKE")) {
                    name(Kind.REFERENCE);
                }
            }
            case "DATABASE", "SCHEMA" -> {
                skipIfExists();
                schemaName();
            }
            case "VIEW" -> {
                skipIfExists();
                name(Kind.TABLE);
            }
            case "TRIGGER" -> {
                skipIfExists();
                Ref trigger = name(Kind.REFERENCE);
                while (peek() != null && !peekWord("ON")) {
                    next();
                }
                requireWord("ON");
                Ref table = name(Kind.TABLE);
                if (table.schema() == null && trigger.schema() != null) {
                    // A trigger lives in its table's schema: `CREATE TRIGGER db.trg … ON t` means db.t.
                    refs.set(refs.size() - 1, new Ref(Kind.TABLE, trigger.schema(), table.object(), null));
                }
            }
            case "PROCEDURE", "FUNCTION", "EVENT", "PACKAGE" -> {
                acceptWord("BODY");
                skipIfExists();
                name(Kind.SCHEMA);
            }
            case "INDEX" -> {
                skipIfExists();
                next(); // the index name
                while (peek() != null && !peekWord("ON")) {
                    next(); // USING BTREE …
                }
                requireWord("ON");
                name(Kind.TABLE);
            }
            case "USER", "ROLE" -> {
                return account();
            }
            default -> throw new NotUnderstood();
        }
        return done();
    }

    private Parsed alter() {
        String object = objectKeyword();
        switch (object) {
            case "TABLE" -> {
                skipIfExists();
                name(Kind.TABLE);
                alterTableBody();
            }
            case "SEQUENCE" -> {
                skipIfExists();
                name(Kind.TABLE);
            }
            case "DATABASE", "SCHEMA" -> {
                Token t = peek();
                if (t != null && t.identifier() && !(t.type() == SqlTokens.Type.WORD
                    && DATABASE_OPTIONS.contains(t.text().toUpperCase(java.util.Locale.ROOT)))) {
                    schemaName();
                } else {
                    refs.add(new Ref(Kind.SCHEMA, null, null, null)); // the default database
                }
            }
            case "VIEW" -> name(Kind.TABLE);
            case "PROCEDURE", "FUNCTION", "EVENT", "PACKAGE" -> {
                acceptWord("BODY");
                name(Kind.SCHEMA);
            }
            case "USER", "ROLE" -> {
                return account();
            }
            default -> throw new NotUnderstood();
        }
        return done();
    }

    /** ALTER TABLE clauses that name another table: RENAME [TO|AS], EXCHANGE PARTITION … WITH TABLE, REFERENCES. */
    private void alterTableBody() {
        while (peek() != null) {
            Token t = next();
            if (t.word("RENAME")) {
                if (peekWord("COLUMN") || peekWord("INDEX") || peekWord("KEY") || peekWord("CONSTRAINT")) {
                    continue;
                }
                if (!acceptWord("TO")) {
                    acceptWord("AS");
                }
                name(Kind.TABLE);
            } else if (t.word("WITH") && acceptWord("TABLE")) {
                name(Kind.TABLE);
            } else if (t.word("REFERENCES")) {
                name(Kind.REFERENCE);
            }
        }
    }

    private Parsed drop() {
        String object = objectKeyword();
        switch (object) {
            case "TABLE", "TABLES", "SEQUENCE", "VIEW" -> {
                skipIfExists();
                names(Kind.TABLE);
            }
            case "DATABASE", "SCHEMA" -> {
                skipIfExists();
                schemaName();
            }
            case "TRIGGER", "PROCEDURE", "FUNCTION", "EVENT", "PACKAGE" -> {
                acceptWord("BODY");
                skipIfExists();
                name(Kind.SCHEMA);
            }
            case "INDEX" -> {
                skipIfExists();
                next(); // the index name
                requireWord("ON");
                name(Kind.TABLE);
            }
            case "USER", "ROLE" -> {
                return account();
            }
            default -> throw new NotUnderstood();
        }
        return done();
    }

    /** GRANT/REVOKE … ON [TABLE|FUNCTION|PROCEDURE|PACKAGE [BODY]] db.object: the schema is a reference. */
    private void grantTarget() {
        while (peek() != null && !peekWord("ON")) {
            next();
        }
        if (!acceptWord("ON")) {
            return; // GRANT role TO user
        }
        if (acceptWord("TABLE") || acceptWord("FUNCTION") || acceptWord("PROCEDURE") || acceptWord("PACKAGE")) {
            acceptWord("BODY");
        }
        Token a = peek();
        if (a == null || !a.identifier() || at + 1 >= tokens.size() || !tokens.get(at + 1).punct('.')) {
            return; // ON *, ON *.*, ON table, ON 'user'@'host' (PROXY)
        }
        next();
        next();
        Token b = next();
        refs.add(new Ref(Kind.REFERENCE, a.text(), b == null ? null : b.text(), a));
    }

    /** The keyword naming the kind of object after CREATE/ALTER/DROP, past OR REPLACE, DEFINER=… and the like. */
    private String objectKeyword() {
        while (true) {
            Token t = next();
            if (t == null) {
                throw new NotUnderstood();
            }
            if (t.type() == SqlTokens.Type.WORD) {
                String w = t.text().toUpperCase(java.util.Locale.ROOT);
                if (!PREFIX.contains(w)) {
                    return w;
                }
            }
            // DEFINER = `user`@`host`, ALGORITHM = MERGE, CURRENT_USER(): skip
        }
    }

    private void skipIfExists() {
        if (acceptWord("IF")) {
            acceptWord("NOT");
            requireWord("EXISTS");
        }
    }

    private void schemaName() {
        Token t = next();
        if (t == null || !t.identifier()) {
            throw new NotUnderstood();
        }
        refs.add(new Ref(Kind.SCHEMA, t.text(), null, t));
    }

    private void names(Kind kind) {
        do {
            name(kind);
        } while (acceptPunct(','));
    }

    /** [schema.]name; the schema token is kept so it can be renamed. */
    private Ref name(Kind kind) {
        Token a = next();
        if (a == null || !a.identifier()) {
            throw new NotUnderstood();
        }
        Ref r;
        if (acceptPunct('.')) {
            Token b = next();
            if (b == null || !b.identifier()) {
                throw new NotUnderstood();
            }
            r = new Ref(kind, a.text(), b.text(), a);
        } else {
            r = new Ref(kind, null, a.text(), null);
        }
        refs.add(r);
        return r;
    }

    private Parsed account() {
        return new Parsed(List.copyOf(refs), true, true);
    }

    private Parsed done() {
        return new Parsed(List.copyOf(refs), false, true);
    }
}
