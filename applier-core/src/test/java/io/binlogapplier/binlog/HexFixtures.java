package io.binlogapplier.binlog;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads the annotated hex fixtures under {@code src/test/resources/fixtures/binlog/}: one event a
 * file, written as hex bytes with {@code #} comments. Whitespace separates tokens; a token is one
 * byte ({@code a2}) or a byte repeated ({@code 78*70000} = 70000 bytes 0x78). Anything else fails
 * loudly, so a typo cannot silently shift the bytes after it.
 */
public final class HexFixtures {
    private static final Pattern TOKEN = Pattern.compile("([0-9a-fA-F]{2})(?:\\*([0-9]+))?");

    private HexFixtures() {
    }

    /** The bytes of {@code fixtures/binlog/<name>.hex}. */
    public static byte[] load(String name) {
        String resource = "/fixtures/binlog/" + name + ".hex";
        try (InputStream in = HexFixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + resource);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] parse(String text, String source) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            for (String token : line.trim().split("\\s+")) {
                if (token.isEmpty()) {
                    continue;
                }
                Matcher m = TOKEN.matcher(token);
                if (!m.matches()) {
                    throw new IllegalArgumentException(source + " line " + (n + 1) + ": bad token '" + token + "'");
                }
                int b = Integer.parseInt(m.group(1), 16);
                int count = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
                for (int i = 0; i < count; i++) {
                    out.write(b);
                }
            }
        }
        return out.toByteArray();
    }

    /** Converts a fixture with a fresh converter (no table maps known). */
    public static BinlogEvent event(String name) {
        return new EventConverter().convert(load(name));
    }
}
