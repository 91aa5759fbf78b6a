package io.binlogapplier.apply;

/** Small helpers for writing SQL text safely. */
public final class Sql {
    private Sql() {
    }

    /** Quotes an identifier with backticks, doubling any backtick inside. */
    public static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /** Quotes a string literal for statements we build from trusted values (config, positions). */
    public static String literal(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 2).append('\'');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\'' -> sb.append("''");
                case '\\' -> sb.append("\\\\");
                case '\0' -> sb.append("\\0");
                default -> sb.append(c);
            }
        }
        return sb.append('\'').toString();
    }
}
