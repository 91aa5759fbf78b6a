package io.binlogapplier.filter;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.apply.Sql;
import io.binlogapplier.filter.SqlTokens.Token;
import io.binlogapplier.filter.StatementNames.Kind;
import io.binlogapplier.filter.StatementNames.Parsed;
import io.binlogapplier.filter.StatementNames.Ref;
import io.binlogapplier.transaction.Change;
import io.binlogapplier.transaction.StatementKind;
import io.binlogapplier.transaction.Transaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * The filter's statement stage, applied by the transaction assembler to every part it passes on: decides for every
 * statement (DDL, statement-format DML) whether it is applied, and renames its schemas (README
 * "Filters"). A skipped statement leaves its transaction, which still advances the position; a
 * transaction whose DDL was skipped is no longer a barrier. A statement the filter cannot decide
 * or rename safely stops the applier ({@link ExitCode#SOURCE_STATEMENT_UNFILTERABLE}) before
 * anything of it is applied. Not thread-safe: the reader thread's.
 */
public final class StatementFilter implements UnaryOperator<Transaction> {
    private static final Logger log = LoggerFactory.getLogger(StatementFilter.class);
    /** sql_mode bits (sql_class.h MODE_ANSI_QUOTES, MODE_NO_BACKSLASH_ESCAPES), the same in MySQL and MariaDB. */
    static final long MODE_ANSI_QUOTES = 1L << 2;
    static final long MODE_NO_BACKSLASH_ESCAPES = 1L << 20;
    /** Client character sets whose multi-byte characters may contain ASCII bytes such as {@code `} or {@code \}. */
    private static final Set<String> ASCII_UNSAFE = Set.of("big5", "gbk", "gb18030", "sjis", "cp932");

    private final ReplicationFilter filter;
    private final IntFunction<String> charsetOf;

    /**
     * @param charsetOf the MySQL character set of a collation id (the statement's character_set_client), or null
     */
    public StatementFilter(ReplicationFilter filter, IntFunction<String> charsetOf) {
        this.filter = filter;
        this.charsetOf = charsetOf;
    }

    /** The part with its statements filtered; the part itself when nothing changes. */
    @Override
    public Transaction apply(Transaction part) {
        if (!part.hasStatements()) {
            return part;
        }
        List<Change> kept = new ArrayList<>(part.changes().size());
        long bytes = part.sizeBytes();
        boolean implicitCommit = false;
        boolean statements = false;
        boolean changed = false;
        for (Change c : part.changes()) {
            if (c instanceof Change.Statement s) {
                Change.Statement f = filter(s, part);
                if (f == null) {
                    bytes -= s.sizeBytes();
                    changed = true;
                    continue;
                }
                changed |= f != s;
                implicitCommit |= f.implicitCommit();
                statements = true;
                kept.add(f);
            } else {
                kept.add(c);
            }
        }
        if (!changed) {
            return part;
        }
        return new Transaction(part.head(), part.part(), List.copyOf(kept), bytes, part.end(), implicitCommit,
            statements);
    }

    /** The statement as it is to be applied, or null when the filter skips it. */
    Change.Statement filter(Change.Statement s, Transaction where) {
        if (StatementKind.of(s.sql()) == StatementKind.SAVEPOINT) {
            // It names a savepoint of the transaction, not a table: skipping it by its default database lost
            // a ROLLBACK TO SAVEPOINT, and the rows the source rolled back committed (as a native replica,
            // which exempts these from its database rules).
            return s;
        }
        String db = s.database() == null || s.database().isEmpty() ? null : s.database();
        Integer collation = s.status().clientCharset();
        String charset = collation == null ? "utf8mb4" : charsetOf.apply(collation);
        byte[] sql = s.sql();
        if (!ascii(sql) && (charset == null || ASCII_UNSAFE.contains(charset))) {
            // Names cannot be read out of this text reliably: only the default database decides.
            if (filter.renames() && mentionsRenamedSchema(sql)) {
                throw unfilterable(where, s, "is in character set " + charset + ", in which binlog-applier cannot"
                    + " find the schema names filter.rename must change");
            }
            return byDefaultDatabase(s, db, where, "its default database");
        }
        long mode = s.status().sqlMode() == null ? 0 : s.status().sqlMode();
        List<Token> tokens = SqlTokens.tokenize(sql, identifierCharset(charset), (mode & MODE_ANSI_QUOTES) != 0,
            (mode & MODE_NO_BACKSLASH_ESCAPES) != 0);
        Parsed parsed = StatementNames.parse(tokens);
        if (parsed.account()) {
            if (!filter.replicatesSchema("mysql")) {
                skip(s, where, "an account statement, and schema mysql is not replicated");
                return null;
            }
        } else if (!decide(s, parsed, db, where)) {
            return null;
        }
        return dropTriggerIfExists(renamed(s, parsed, tokens, db, charset, where), parsed, tokens, db);
    }

    /**
     * {@code DROP TRIGGER t} goes to the target as {@code DROP TRIGGER IF EXISTS t} when the filter may
     * leave out tables of the trigger's schema: a DROP TRIGGER is decided by that schema alone, but the
     * CREATE TRIGGER was decided by the trigger's table, and when that table is left out the trigger was
     * never created here; the plain drop then failed (1360) and stopped the applier. (A native MySQL replica
     * looks the trigger's table up first.) Only the bytes before any name change, so the insertion point
     * read from the source's text holds in the renamed one.
     */
    private Change.Statement dropTriggerIfExists(Change.Statement s, Parsed parsed, List<Token> tokens, String db) {
        if (tokens.size() < 3 || !tokens.get(0).word("DROP") || !tokens.get(1).word("TRIGGER")
            || tokens.get(2).word("IF")) {
            return s;
        }
        String schema = parsed.refs().stream().filter(r -> r.schema() != null).map(Ref::schema).findFirst().orElse(db);
        if (schema == null || !filter.mayLeaveOutTablesOf(schema)) {
            return s;
        }
        byte[] sql = s.sql();
        int at = tokens.get(1).end();
        byte[] insert = " IF EXISTS".getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[sql.length + insert.length];
        System.arraycopy(sql, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(sql, at, out, at + insert.length, sql.length - at);
        return new Change.Statement(s.database(), out, s.status(), s.implicitCommit(), s.timestampSeconds(),
            s.insertId(), s.lastInsertId(), s.randSeeds(), s.sizeBytes() + insert.length);
    }

    /** @return whether the statement is applied; logs a skip */
    private boolean decide(Change.Statement s, Parsed parsed, String db, Transaction where) {
        List<String> in = new ArrayList<>();
        List<String> out = new ArrayList<>();
        if (parsed.understood()) {
            for (Ref r : parsed.refs()) {
                if (r.kind() == Kind.REFERENCE) {
                    continue;
                }
                String schema = r.schema() != null ? r.schema() : db;
                if (schema == null) {
                    continue; // the source ran it without a database: nothing the filter can judge
                }
                boolean yes = r.kind() == Kind.TABLE ? filter.replicates(schema, r.object())
                    : filter.replicatesSchema(schema);
                String name = r.kind() == Kind.TABLE ? Sql.quote(schema) + "." + Sql.quote(r.object())
                    : "schema " + Sql.quote(schema);
                (yes ? in : out).add(name);
                if (yes) {
                    filter.target(schema); // two source schemas onto one target schema: stop here
                }
            }
        }
        if (in.isEmpty() && out.isEmpty()) {
            return byDefaultDatabase(s, db, where, "its default database") != null;
        }
        if (!out.isEmpty() && !in.isEmpty()) {
            throw unfilterable(where, s, "changes " + String.join(", ", in) + ", which the filter applies, and "
                + String.join(", ", out) + ", which it leaves out; one statement cannot be split");
        }
        if (in.isEmpty()) {
            skip(s, where, "the filter leaves out " + String.join(", ", out));
            return false;
        }
        return true;
    }

    private Change.Statement byDefaultDatabase(Change.Statement s, String db, Transaction where, String what) {
        if (db != null && !filter.replicatesSchema(db)) {
            skip(s, where, "decided by " + what + " " + Sql.quote(db) + ", which the filter leaves out");
            return null;
        }
        if (db == null || !filter.renamed(db)) {
            return s;
        }
        return new Change.Statement(filter.target(db), s.sql(), s.status(), s.implicitCommit(), s.timestampSeconds(),
            s.insertId(), s.lastInsertId(), s.randSeeds(), s.sizeBytes());
    }

    /** Renames the default database and every schema qualifier found in a name position. */
    private Change.Statement renamed(Change.Statement s, Parsed parsed, List<Token> tokens, String db, String charset,
                                     Transaction where) {
        if (!filter.renames()) {
            return s;
        }
        List<Token> replaced = new ArrayList<>();
        Set<Token> rewritten = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Ref r : parsed.refs()) {
            if (r.qualifier() != null && filter.renamed(r.schema()) && rewritten.add(r.qualifier())) {
                replaced.add(r.qualifier());
            }
        }
        boolean[] schemas = SchemaPositions.certainSchemas(tokens);
        for (int i = 0; i + 1 < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.identifier() && tokens.get(i + 1).punct('.') && (i == 0 || !tokens.get(i - 1).punct('.'))
                && !rewritten.contains(t) && !(t.type() == SqlTokens.Type.WORD && t.text().chars().allMatch(
                    Character::isDigit)) && filter.renamed(t.text())) {
                if (!schemas[i]) {
                    throw unfilterable(where, s, "qualifies a name with " + Sql.quote(t.text()) + ", which"
                        + " filter.rename maps to " + Sql.quote(filter.target(t.text())) + ", where binlog-applier"
                        + " cannot tell a schema from a table (the native replica's replicate-rewrite-db would not"
                        + " rename it either)");
                }
                rewritten.add(t);
                replaced.add(t);
            }
        }
        String newDb = db != null && filter.renamed(db) ? filter.target(db) : s.database();
        if (replaced.isEmpty() && java.util.Objects.equals(newDb, s.database())) {
            return s;
        }
        byte[] sql = s.sql();
        if (!replaced.isEmpty()) {
            replaced.sort((a, b) -> Integer.compare(a.start(), b.start()));
            ByteArrayOutputStream out = new ByteArrayOutputStream(sql.length + 16 * replaced.size());
            int from = 0;
            for (Token q : replaced) {
                out.write(sql, from, q.start() - from);
                String target = Sql.quote(filter.target(q.text()));
                if (!ascii(target) && !(charset == null || charset.startsWith("utf8"))) {
                    throw unfilterable(where, s, "is in character set " + charset + ", and the new schema name "
                        + target + " is not ASCII");
                }
                out.writeBytes(target.getBytes(StandardCharsets.UTF_8));
                from = q.end();
            }
            out.write(sql, from, sql.length - from);
            sql = out.toByteArray();
        }
        return new Change.Statement(newDb, sql, s.status(), s.implicitCommit(), s.timestampSeconds(), s.insertId(),
            s.lastInsertId(), s.randSeeds(), s.sizeBytes());
    }

    private boolean mentionsRenamedSchema(byte[] sql) {
        String text = new String(sql, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        for (String word : text.split("[^a-z0-9_$\\u0080-\\u00ff]+")) {
            if (!word.isEmpty() && filter.renamed(word)) {
                return true;
            }
        }
        return false;
    }

    private static Charset identifierCharset(String charset) {
        if (charset == null || charset.startsWith("utf8")) {
            return StandardCharsets.UTF_8;
        }
        return charset.equals("latin1") ? Charset.forName("windows-1252") : StandardCharsets.ISO_8859_1;
    }

    private static void skip(Change.Statement s, Transaction where, String why) {
        log.info("filter: skipped statement `{}` of {} ({})", abbreviate(s.sql()), describe(where), why);
    }

    private static ApplierException unfilterable(Transaction where, Change.Statement s, String what) {
        String after = where.end() == null ? "the position after that transaction"
            : "source.start: \"" + where.end().end() + "\"";
        return new ApplierException(ExitCode.SOURCE_STATEMENT_UNFILTERABLE, "the statement `" + abbreviate(s.sql())
            + "` of " + describe(where) + " " + what + ": run what of it the target needs by hand (with the target's"
            + " schema names), then skip it (stop, delete the state row, restart with " + after + "), or change"
            + " filter: so that it is wholly in or out");
    }

    private static String describe(Transaction t) {
        return "transaction " + (t.head().gtid() == null ? "" : t.head().gtid() + " ") + "at " + t.head().start();
    }

    private static boolean ascii(byte[] b) {
        for (byte x : b) {
            if (x < 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean ascii(String s) {
        return s.chars().allMatch(c -> c < 0x80);
    }

    static String abbreviate(byte[] sql) {
        String one = new String(sql, StandardCharsets.UTF_8).replaceAll("\\s+", " ").trim();
        return one.length() > 120 ? one.substring(0, 120) + "…" : one;
    }
}
