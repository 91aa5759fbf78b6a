package io.binlogapplier.config;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A {@code filter.include}/{@code filter.exclude} entry: {@code schema.table}, each part a name
 * with wildcards. {@code *} and {@code %} stand for any run of characters (also none), {@code ?}
 * for exactly one; every other character, {@code _} included, stands for itself. Names are
 * compared without regard to case. Immutable.
 *
 * <p>Unlike MySQL's {@code replicate-wild-do-table}, {@code _} is not a wildcard: table names are
 * full of underscores, and {@code shop.tmp_*} should not also match {@code shop.tmpl}.
 *
 * @param text the pattern as written in the configuration
 */
public record TablePattern(String text, String schemaGlob, String tableGlob, Pattern schemaRegex, Pattern tableRegex) {
    /** Characters a name part may hold besides wildcards: letters, digits, '_', '$' and '-'. */
    private static final Pattern PART = Pattern.compile("[\\p{L}\\p{N}_$*%?-]+");
    private static final Pattern WILDCARD = Pattern.compile("[*%?]");

    /** Parses a pattern; {@link IllegalArgumentException} says what is wrong with it. */
    public static TablePattern parse(String text) {
        int dot = text.indexOf('.');
        if (dot < 0) {
            throw new IllegalArgumentException("must be schema.table (use 'shop.*' for every table of shop), not '"
                + text + "'");
        }
        if (text.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("must hold exactly one '.' between schema and table, not '" + text + "'");
        }
        String schema = text.substring(0, dot);
        String table = text.substring(dot + 1);
        if (schema.isEmpty() || table.isEmpty()) {
            throw new IllegalArgumentException("needs a schema and a table part (use '*' for any), not '" + text + "'");
        }
        for (String part : new String[] {schema, table}) {
            if (!PART.matcher(part).matches()) {
                throw new IllegalArgumentException("may hold only letters, digits, '_', '$', '-' and the wildcards"
                    + " '*', '%', '?' (names without quotes), not '" + text + "'");
            }
            if (part.length() > 64) {
                throw new IllegalArgumentException("has a part longer than 64 characters: '" + text + "'");
            }
        }
        return new TablePattern(text, schema, table, regex(schema), regex(table));
    }

    private static Pattern regex(String glob) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*', '%' -> sb.append(".*");
                case '?' -> sb.append('.');
                default -> sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(sb.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
    }

    public boolean matches(String schema, String table) {
        return schemaRegex.matcher(schema).matches() && tableRegex.matcher(table).matches();
    }

    public boolean matchesSchema(String schema) {
        return schemaRegex.matcher(schema).matches();
    }

    /** The table part matches every name ({@code *} or {@code %} only): the pattern covers whole schemas. */
    public boolean everyTable() {
        return tableGlob.chars().allMatch(c -> c == '*' || c == '%');
    }

    /** The schema part has no wildcard: it names one schema, returned lower-cased; else null. */
    public String literalSchema() {
        return WILDCARD.matcher(schemaGlob).find() ? null : schemaGlob.toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TablePattern p && p.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
