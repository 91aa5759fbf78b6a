package io.binlogapplier.filter;

import io.binlogapplier.filter.SqlTokens.Token;

import java.util.ArrayDeque;
import java.util.List;

/** Where in a statement a dotted name certainly starts with a schema. Pure. */
final class SchemaPositions {
    private SchemaPositions() {
    }

    /**
     * Marks the tokens that begin a dotted name ({@code a.b}, {@code a.b.c}) and certainly name a
     * schema wherever the statement has them: the first of three parts ({@code schema.table.column});
     * a qualified call or column list ({@code schema.name(}); a name right after INTO, TABLE, JOIN,
     * REFERENCES, UPDATE (not {@code KEY UPDATE}), or FROM where FROM starts a table list (outside
     * parentheses or inside a parenthesised SELECT; in {@code EXTRACT(YEAR FROM t.c)} or
     * {@code TRIM(… FROM t.c)} it is a column). Other dotted names may be {@code table.column}.
     */
    static boolean[] certainSchemas(List<Token> tokens) {
        boolean[] out = new boolean[tokens.size()];
        ArrayDeque<Boolean> selectParens = new ArrayDeque<>();
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.punct('(')) {
                Token after = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
                selectParens.push(after != null && (after.word("SELECT") || after.word("WITH")));
                continue;
            }
            if (t.punct(')')) {
                selectParens.poll();
                continue;
            }
            if (!t.identifier() || i + 2 >= tokens.size() || !tokens.get(i + 1).punct('.')
                || i > 0 && tokens.get(i - 1).punct('.')) {
                continue;
            }
            Token second = tokens.get(i + 2);
            Token third = i + 3 < tokens.size() ? tokens.get(i + 3) : null;
            Token before = i > 0 ? tokens.get(i - 1) : null;
            boolean threeParts = second.identifier() && third != null && third.punct('.');
            boolean call = second.identifier() && third != null && third.punct('(');
            boolean tablePosition = before != null && (before.word("INTO") || before.word("TABLE")
                || before.word("JOIN") || before.word("REFERENCES")
                || before.word("UPDATE") && !(i > 1 && tokens.get(i - 2).word("KEY"))
                || before.word("FROM") && (selectParens.isEmpty() || selectParens.peek()));
            out[i] = threeParts || call || tablePosition && second.identifier();
        }
        return out;
    }
}
