package io.binlogapplier.privilege;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The privileges a {@code SHOW GRANTS} listing gives, by level. Pure: takes the lines, answers
 * questions. Understands MariaDB and MySQL output:
 * <pre>
 * GRANT REPLICATION SLAVE, BINLOG MONITOR ON *.* TO `repl`@`%` IDENTIFIED BY PASSWORD '*…'
 * GRANT SELECT, INSERT, UPDATE (a, b) ON `shop`.* TO `applier`@`%`
 * GRANT BINLOG_ADMIN,SYSTEM_VARIABLES_ADMIN ON *.* TO `u`@`%`      (MySQL dynamic privileges)
 * GRANT `dba` TO `u`@`%`                                            (a role: its privileges are not listed)
 * </pre>
 * Privileges granted through a role are invisible here: {@link #hasRoles()} says whether an answer
 * of "no" may be wrong.
 */
public final class Grants {
    private enum Level { GLOBAL, SCHEMA, TABLE }

    private record Grant(Level level, String schema, Set<String> privileges) {
    }

    private final List<Grant> grants;
    private final boolean roles;

    private Grants(List<Grant> grants, boolean roles) {
        this.grants = grants;
        this.roles = roles;
    }

    public static Grants parse(List<String> lines) {
        List<Grant> out = new ArrayList<>();
        boolean roles = false;
        for (String line : lines) {
            String l = line.trim();
            if (!l.regionMatches(true, 0, "GRANT ", 0, 6)) {
                continue;
            }
            int on = indexOutsideQuotes(l, " ON ");
            int to = indexOutsideQuotes(l, " TO ");
            if (to < 0) {
                continue;
            }
            if (on < 0 || on > to) {
                roles = true; // GRANT `role` TO `user`
                continue;
            }
            String object = l.substring(on + 4, to).trim();
            String upper = object.toUpperCase(Locale.ROOT);
            if (upper.startsWith("PROCEDURE ") || upper.startsWith("FUNCTION ") || upper.startsWith("PACKAGE ")) {
                continue;
            }
            Set<String> privileges = privileges(l.substring(6, on));
            if (privileges.contains("PROXY")) {
                continue;
            }
            List<String> parts = objectParts(object);
            if (parts.size() != 2) {
                continue;
            }
            if (parts.get(0).equals("*") && parts.get(1).equals("*")) {
                out.add(new Grant(Level.GLOBAL, null, privileges));
            } else if (parts.get(1).equals("*")) {
                out.add(new Grant(Level.SCHEMA, parts.get(0), privileges));
            } else {
                out.add(new Grant(Level.TABLE, parts.get(0), privileges));
            }
        }
        return new Grants(out, roles);
    }

    /** Some privileges come from roles, which this listing does not expand. */
    public boolean hasRoles() {
        return roles;
    }

    /** Granted on {@code *.*} (directly or as ALL PRIVILEGES); any of {@code names}. */
    public boolean global(String... names) {
        for (Grant g : grants) {
            if (g.level == Level.GLOBAL && anyOf(g.privileges, names)) {
                return true;
            }
        }
        return false;
    }

    /** Granted for every table of {@code schema}: on {@code *.*} or on a matching {@code db.*}. */
    public boolean onSchema(String schema, String privilege) {
        for (Grant g : grants) {
            if (g.level == Level.GLOBAL && anyOf(g.privileges, privilege)) {
                return true;
            }
            if (g.level == Level.SCHEMA && anyOf(g.privileges, privilege) && schemaMatches(g.schema, schema)) {
                return true;
            }
        }
        return false;
    }

    /** Some privilege is granted on single tables (or columns) of {@code schema}. */
    public boolean perTable(String schema) {
        for (Grant g : grants) {
            if (g.level == Level.TABLE && g.schema.equals(schema)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyOf(Set<String> granted, String... names) {
        if (granted.contains("ALL") || granted.contains("ALL PRIVILEGES")) {
            // ALL does not include GRANT OPTION or PROXY; nothing we ask for is either.
            return true;
        }
        for (String n : names) {
            if (granted.contains(n.toUpperCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /** A schema-level grant names its schema with LIKE wildcards: {@code %}, {@code _}, {@code \_} for a literal. */
    static boolean schemaMatches(String pattern, String schema) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(schema).matches();
    }

    /** "SELECT, INSERT, UPDATE (a, b)" → SELECT, INSERT (column grants are not table grants). */
    private static Set<String> privileges(String list) {
        Set<String> out = new HashSet<>();
        int depth = 0;
        StringBuilder cur = new StringBuilder();
        boolean columns = false;
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '(') {
                depth++;
                columns = true;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String p = cur.toString().trim().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
                if (!p.isEmpty() && !columns) {
                    out.add(p);
                }
                cur.setLength(0);
                columns = false;
            } else if (depth == 0) {
                cur.append(c);
            }
        }
        return out;
    }

    /** {@code `db`.*} → [db, *]; {@code db.t} → [db, t]; backquotes and {@code ``} escapes handled. */
    private static List<String> objectParts(String object) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < object.length(); i++) {
            char c = object.charAt(i);
            if (c == '`') {
                if (quoted && i + 1 < object.length() && object.charAt(i + 1) == '`') {
                    cur.append('`');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == '.' && !quoted) {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        return parts;
    }

    private static int indexOutsideQuotes(String s, String word) {
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '`' || c == '\'' || c == '"') {
                quote = c;
            } else if (s.regionMatches(true, i, word, 0, word.length())) {
                return i;
            }
        }
        return -1;
    }
}
