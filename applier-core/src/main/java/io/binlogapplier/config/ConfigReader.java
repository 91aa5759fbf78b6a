package io.binlogapplier.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads typed values out of a YAML mapping, collecting problems (with their key path) instead of
 * stopping at the first; every key read is remembered so unknown keys can be reported.
 */
final class ConfigReader {
    private static final Pattern DURATION = Pattern.compile("^(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?$");
    private static final Pattern SIZE = Pattern.compile("^(\\d+)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$");

    private final List<String> problems;
    private final String path;
    private final Map<?, ?> map;
    private final Set<String> known = new LinkedHashSet<>();

    ConfigReader(List<String> problems, String path, Map<?, ?> map) {
        this.problems = problems;
        this.path = path;
        this.map = map;
    }

    String key(String k) {
        return path.isEmpty() ? k : path + "." + k;
    }

    void problem(String key, String what) {
        problems.add(key(key) + ": " + what);
    }

    private Object raw(String k) {
        known.add(k);
        return map == null ? null : map.get(k);
    }

    boolean has(String k) {
        known.add(k);
        return map != null && map.containsKey(k) && map.get(k) != null;
    }

    /** Whether {@code k} holds a mapping (rather than a single value). */
    boolean isMapping(String k) {
        return raw(k) instanceof Map;
    }

    ConfigReader section(String k) {
        Object v = raw(k);
        if (v == null) {
            return new ConfigReader(problems, key(k), null);
        }
        if (!(v instanceof Map<?, ?> m)) {
            problem(k, "must be a mapping of keys, not " + describe(v));
            return new ConfigReader(problems, key(k), null);
        }
        return new ConfigReader(problems, key(k), m);
    }

    String string(String k, String def, boolean required) {
        Object v = raw(k);
        if (v == null) {
            if (required) {
                problem(k, "is required");
            }
            return def;
        }
        if (v instanceof Map || v instanceof List) {
            problem(k, "must be a text value, not " + describe(v));
            return def;
        }
        return String.valueOf(v);
    }

    /**
     * A value that must be text as written: a number or a boolean YAML read from it (1.50 became
     * 1.5, 1e3 became 1000.0, yes became true) is refused with {@code fix}.
     */
    String text(String k, String def, String fix) {
        Object v = raw(k);
        if (v instanceof Number || v instanceof Boolean) {
            problem(k, "was read as the " + (v instanceof Boolean ? "boolean " : "number ") + v + ", which may not be"
                + " what the file says: " + fix);
            return def;
        }
        return string(k, def, false);
    }

    long integer(String k, long def, long min, long max, boolean required) {
        Object v = raw(k);
        if (v == null) {
            if (required) {
                problem(k, "is required");
            }
            return def;
        }
        long n;
        if (v instanceof java.math.BigInteger big && big.bitLength() > 63) {
            problem(k, "must be between " + min + " and " + max + ", not " + big);
            return def;
        }
        if (v instanceof Number num && !(v instanceof Double) && !(v instanceof Float)) {
            n = num.longValue();
        } else {
            try {
                n = Long.parseLong(String.valueOf(v).trim());
            } catch (NumberFormatException e) {
                problem(k, "must be a whole number, not " + describe(v));
                return def;
            }
        }
        if (n < min || n > max) {
            problem(k, "must be between " + min + " and " + max + ", not " + n);
            return def;
        }
        return n;
    }

    Duration duration(String k, Duration def, Duration min) {
        Object v = raw(k);
        if (v == null) {
            return def;
        }
        Matcher m = DURATION.matcher(String.valueOf(v).trim().toLowerCase(Locale.ROOT));
        if (v instanceof Map || v instanceof List || !m.matches()) {
            problem(k, "must be a duration such as 500ms, 10s or 2m, not " + describe(v));
            return def;
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        long millis = (long) switch (unit) {
            case "ms" -> n;
            case "m" -> n * 60_000;
            case "h" -> n * 3_600_000;
            default -> n * 1000;
        };
        Duration d = Duration.ofMillis(millis);
        if (d.compareTo(min) < 0) {
            problem(k, "must be at least " + min.toMillis() + "ms");
            return def;
        }
        return d;
    }

    long size(String k, long def, long min, long max) {
        Object v = raw(k);
        if (v == null) {
            return def;
        }
        Matcher m = SIZE.matcher(String.valueOf(v).trim().toLowerCase(Locale.ROOT));
        if (v instanceof Map || v instanceof List || !m.matches()) {
            problem(k, "must be a size such as 64MB, 1GB or a number of bytes, not " + describe(v));
            return def;
        }
        String unit = m.group(2) == null ? "b" : m.group(2);
        long mult = switch (unit) {
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> 1;
        };
        long bytes;
        try {
            bytes = Math.multiplyExact(Long.parseLong(m.group(1)), mult);
        } catch (NumberFormatException | ArithmeticException e) {
            problem(k, "must be between " + min + " and " + max + " bytes, not " + describe(v));
            return def;
        }
        if (bytes < min || bytes > max) {
            problem(k, "must be between " + min + " and " + max + " bytes, not " + bytes);
            return def;
        }
        return bytes;
    }

    boolean bool(String k, boolean def) {
        Object v = raw(k);
        if (v == null) {
            return def;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        String s = String.valueOf(v).trim().toLowerCase(Locale.ROOT);
        if (s.equals("true") || s.equals("yes") || s.equals("on")) {
            return true;
        }
        if (s.equals("false") || s.equals("no") || s.equals("off")) {
            return false;
        }
        problem(k, "must be true or false, not " + describe(v));
        return def;
    }

    <E extends Enum<E>> E choice(String k, E def, Class<E> type) {
        Object v = raw(k);
        if (v == null) {
            return def;
        }
        String s = String.valueOf(v).trim().toUpperCase(Locale.ROOT);
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(s)) {
                return e;
            }
        }
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            names.add(e.name().toLowerCase(Locale.ROOT));
        }
        problem(k, "must be one of " + String.join(", ", names) + ", not " + describe(v));
        return def;
    }

    <T> T parsed(String k, T def, Function<String, T> parser, String expected) {
        Object v = raw(k);
        if (v == null) {
            return def;
        }
        T t = v instanceof Map || v instanceof List ? null : parser.apply(String.valueOf(v));
        if (t == null) {
            problem(k, "must be " + expected + ", not " + describe(v));
            return def;
        }
        return t;
    }

    /**
     * A list of text values (empty when absent). An entry that is not text is reported as
     * {@code key[i]} and comes back as null, so later checks can still name entries by index.
     */
    List<String> stringList(String k) {
        Object v = raw(k);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list)) {
            problem(k, "must be a list such as [\"a\", \"b\"], not " + describe(v));
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Object e = list.get(i);
            if (e == null || e instanceof Map || e instanceof List) {
                problem(k + "[" + i + "]", "must be a text value, not " + (e == null ? "nothing" : describe(e)));
                out.add(null);
            } else {
                out.add(String.valueOf(e));
            }
        }
        return out;
    }

    /** A mapping of text keys to text values, in file order (empty when absent); bad values are left out. */
    Map<String, String> stringMap(String k) {
        Object v = raw(k);
        if (v == null) {
            return Map.of();
        }
        if (!(v instanceof Map<?, ?> m)) {
            problem(k, "must be a mapping such as { a: b }, not " + describe(v));
            return Map.of();
        }
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String key = String.valueOf(e.getKey());
            Object value = e.getValue();
            if (value == null || value instanceof Map || value instanceof List) {
                problem(k + "." + key, "must be a text value, not " + (value == null ? "nothing" : describe(value)));
            } else {
                out.put(key, String.valueOf(value));
            }
        }
        return out;
    }

    /** Reports keys present in the file that nothing read. */
    void rejectUnknown() {
        if (map == null) {
            return;
        }
        for (Object k : map.keySet()) {
            if (!known.contains(String.valueOf(k))) {
                problems.add(key(String.valueOf(k)) + ": unknown key (see config/example.yml for the keys there are)");
            }
        }
    }

    static String describe(Object v) {
        if (v instanceof Map) {
            return "a mapping";
        }
        if (v instanceof List) {
            return "a list";
        }
        String s = String.valueOf(v);
        return "'" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "'";
    }
}
