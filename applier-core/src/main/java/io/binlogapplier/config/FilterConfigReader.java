package io.binlogapplier.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Reads and checks the {@code filter:} section; every problem is reported with its key path. */
final class FilterConfigReader {
    private static final Pattern SCHEMA_NAME = Pattern.compile("[\\p{L}\\p{N}_$-]{1,64}");

    private FilterConfigReader() {
    }

    static FilterConfig read(ConfigReader r, String stateSchema) {
        String state = stateSchema.toLowerCase(Locale.ROOT);
        Map<String, String> rename = rename(r, state);
        Map<String, String> targets = new HashMap<>(); // lower-cased target -> its source, as written
        rename.forEach((from, to) -> targets.put(to.toLowerCase(Locale.ROOT), from));
        List<TablePattern> include = patterns(r, "include", state, rename, targets, true);
        List<TablePattern> exclude = patterns(r, "exclude", state, rename, targets, false);
        r.rejectUnknown();
        return new FilterConfig(include, exclude, rename);
    }

    private static List<TablePattern> patterns(ConfigReader r, String key, String state, Map<String, String> rename,
                                               Map<String, String> targets, boolean include) {
        List<String> texts = r.stringList(key);
        List<TablePattern> out = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            if (text == null) {
                continue;
            }
            String at = key + "[" + i + "]";
            TablePattern p;
            try {
                p = TablePattern.parse(text.trim());
            } catch (IllegalArgumentException e) {
                r.problem(at, e.getMessage());
                continue;
            }
            String schema = p.literalSchema();
            if (include && state.equals(schema)) {
                r.problem(at, "'" + text + "' names target.state_schema, which holds the applier's position and is"
                    + " never replicated; leave it out");
                continue;
            }
            if (schema != null && targets.containsKey(schema) && !containsIgnoreCase(rename, schema)) {
                String source = targets.get(schema);
                r.problem(at, "'" + text + "' names the target schema of filter.rename." + source + "; patterns"
                    + " match source names: write '" + source + "." + p.tableGlob() + "'");
                continue;
            }
            out.add(p);
        }
        return out;
    }

    private static Map<String, String> rename(ConfigReader r, String state) {
        Map<String, String> raw = r.stringMap("rename");
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, String> sourceSeen = new HashMap<>(); // lower-cased source -> as written
        Map<String, String> targetSeen = new HashMap<>(); // lower-cased target -> its source, as written
        for (Map.Entry<String, String> e : raw.entrySet()) {
            String from = e.getKey().trim();
            String to = e.getValue().trim();
            String at = "rename." + e.getKey();
            String fromLower = from.toLowerCase(Locale.ROOT);
            String toLower = to.toLowerCase(Locale.ROOT);
            if (!SCHEMA_NAME.matcher(from).matches()) {
                r.problem(at, "the source schema must be a plain name (letters, digits, '_', '$', '-'; no wildcards"
                    + " or quotes), not '" + from + "'");
                continue;
            }
            if (!SCHEMA_NAME.matcher(to).matches()) {
                r.problem(at, "the target schema must be a plain name (letters, digits, '_', '$', '-'; no wildcards"
                    + " or quotes), not '" + to + "'");
                continue;
            }
            if (fromLower.equals(toLower)) {
                r.problem(at, "renames '" + from + "' to itself; leave it out");
                continue;
            }
            if (fromLower.equals(state)) {
                r.problem(at, "'" + from + "' is target.state_schema, which is never replicated; leave it out");
                continue;
            }
            if (toLower.equals(state)) {
                r.problem(at, "the target '" + to + "' is target.state_schema, which holds the applier's position;"
                    + " choose another name");
                continue;
            }
            if (sourceSeen.containsKey(fromLower)) {
                r.problem(at, "names the same source schema as filter.rename." + sourceSeen.get(fromLower)
                    + " (names are compared without regard to case)");
                continue;
            }
            if (targetSeen.containsKey(toLower)) {
                r.problem(at, "'" + to + "' is also the target of filter.rename." + targetSeen.get(toLower)
                    + ": two source schemas cannot share one target schema");
                continue;
            }
            sourceSeen.put(fromLower, from);
            targetSeen.put(toLower, from);
            out.put(from, to);
        }
        return out;
    }

    private static boolean containsIgnoreCase(Map<String, String> rename, String lower) {
        for (String k : rename.keySet()) {
            if (k.toLowerCase(Locale.ROOT).equals(lower)) {
                return true;
            }
        }
        return false;
    }
}
