package io.binlogapplier.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser for tests (RFC 8259): objects become maps, arrays lists, numbers doubles.
 * Anything that is not exactly one JSON value (trailing text, a bare word, a missing quote) throws
 * {@link IllegalArgumentException}, so a test can assert that a line "parses as JSON".
 */
public final class Json {
    private final String text;
    private int i;

    private Json(String text) {
        this.text = text;
    }

    public static Object parse(String text) {
        Json p = new Json(text);
        p.space();
        Object v = p.value();
        p.space();
        if (p.i != text.length()) {
            throw p.error("trailing text");
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String text) {
        Object v = parse(text);
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object: " + text);
        }
        return (Map<String, Object>) v;
    }

    private Object value() {
        if (i >= text.length()) {
            throw error("end of text");
        }
        char c = text.charAt(i);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            default:
                if (text.startsWith("true", i)) {
                    i += 4;
                    return Boolean.TRUE;
                }
                if (text.startsWith("false", i)) {
                    i += 5;
                    return Boolean.FALSE;
                }
                if (text.startsWith("null", i)) {
                    i += 4;
                    return null;
                }
                return number();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        space();
        if (peek() == '}') {
            i++;
            return m;
        }
        while (true) {
            space();
            if (peek() != '"') {
                throw error("a key");
            }
            String k = string();
            space();
            expect(':');
            space();
            m.put(k, value());
            space();
            if (peek() == ',') {
                i++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        i++;
        space();
        if (peek() == ']') {
            i++;
            return l;
        }
        while (true) {
            space();
            l.add(value());
            space();
            if (peek() == ',') {
                i++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        i++;
        while (true) {
            if (i >= text.length()) {
                throw error("an unterminated string");
            }
            char c = text.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c < 0x20) {
                throw error("a control character in a string");
            }
            if (c == '\\') {
                char e = text.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(text.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> throw error("a bad escape");
                }
            } else {
                b.append(c);
            }
        }
    }

    private Double number() {
        int start = i;
        while (i < text.length() && "+-0123456789.eE".indexOf(text.charAt(i)) >= 0) {
            i++;
        }
        String n = text.substring(start, i);
        if (!n.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            throw error("a value");
        }
        return Double.valueOf(n);
    }

    private char peek() {
        return i < text.length() ? text.charAt(i) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("'" + c + "'");
        }
        i++;
    }

    private void space() {
        while (i < text.length() && " \t\r\n".indexOf(text.charAt(i)) >= 0) {
            i++;
        }
    }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("not JSON: expected " + expected + " at " + i + " in: " + text);
    }
}
