package io.binlogapplier.apply;

import java.util.ArrayList;
import java.util.List;

/**
 * A statement of {@link RowSql} split at its parameter markers, to be written out with literals in
 * their place ({@link SqlLiteral}). A {@code ?} inside a back-quoted identifier or a quoted string
 * is text, not a marker. Pure; immutable.
 */
final class SqlTemplate {
    private final String[] parts;

    private SqlTemplate(String[] parts) {
        this.parts = parts;
    }

    static SqlTemplate of(String sql) {
        List<String> out = new ArrayList<>();
        int start = 0;
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0; // a doubled quote closes and opens again: still inside
                }
            } else if (c == '`' || c == '\'' || c == '"') {
                quote = c;
            } else if (c == '?') {
                out.add(sql.substring(start, i));
                start = i + 1;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unterminated quote in " + sql);
        }
        out.add(sql.substring(start));
        return new SqlTemplate(out.toArray(new String[0]));
    }

    /** The parameter markers. */
    int params() {
        return parts.length - 1;
    }

    /** The text before marker {@code i} (after marker {@code i - 1}); {@code part(params())} is the tail. */
    String part(int i) {
        return parts[i];
    }
}
