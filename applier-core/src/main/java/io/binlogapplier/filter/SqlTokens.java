package io.binlogapplier.filter;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits statement text into the tokens that name things, as MySQL's lexer does: words (keywords
 * and unquoted identifiers), quoted identifiers, string literals, variables and single punctuation
 * characters; white space and comments are dropped. The body of an executable comment
 * ({@code /*!40101 … *}{@code /}, MariaDB's {@code /*M!100100 …}) counts as code. Works on the raw
 * bytes of a statement in a character set whose multi-byte characters never contain ASCII bytes
 * (UTF-8, latin1, …): token offsets are byte offsets. Pure.
 */
final class SqlTokens {
    enum Type { WORD, QUOTED, STRING, VARIABLE, PUNCT }

    /**
     * @param text for WORD and QUOTED, the identifier (quotes removed, doubled quotes undone); for
     *     PUNCT the character; for STRING and VARIABLE the raw text
     * @param start byte offset of the token's first byte
     * @param end byte offset just past it
     */
    record Token(Type type, String text, int start, int end) {
        boolean word(String keyword) {
            return type == Type.WORD && text.equalsIgnoreCase(keyword);
        }

        boolean identifier() {
            return type == Type.WORD || type == Type.QUOTED;
        }

        boolean punct(char c) {
            return type == Type.PUNCT && text.charAt(0) == c;
        }
    }

    private SqlTokens() {
    }

    /**
     * @param identifiers decodes the bytes of non-ASCII identifiers (the statement's character set)
     * @param ansiQuotes sql_mode ANSI_QUOTES: {@code "…"} is an identifier, not a string
     * @param noBackslashEscapes sql_mode NO_BACKSLASH_ESCAPES: a backslash in a string is ordinary
     */
    static List<Token> tokenize(byte[] sql, Charset identifiers, boolean ansiQuotes, boolean noBackslashEscapes) {
        List<Token> out = new ArrayList<>();
        int n = sql.length;
        int i = 0;
        boolean inExecutableComment = false;
        while (i < n) {
            int c = sql[i] & 0xFF;
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B) {
                i++;
            } else if (c == '#' || c == '-' && i + 1 < n && sql[i + 1] == '-' && (i + 2 >= n || (sql[i + 2] & 0xFF) <= ' ')) {
                while (i < n && sql[i] != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
                int body = executableCommentBody(sql, i);
                if (body > 0 && !inExecutableComment) {
                    inExecutableComment = true;
                    i = body;
                } else {
                    i = skipComment(sql, i + 2);
                }
            } else if (c == '*' && inExecutableComment && i + 1 < n && sql[i + 1] == '/') {
                inExecutableComment = false;
                i += 2;
            } else if (c == '`' || c == '"' && ansiQuotes) {
                int end = closing(sql, i, (byte) c, false);
                out.add(new Token(Type.QUOTED, unquote(sql, i, end, (byte) c, identifiers), i, end));
                i = end;
            } else if (c == '\'' || c == '"') {
                int end = closing(sql, i, (byte) c, !noBackslashEscapes);
                out.add(new Token(Type.STRING, latin1(sql, i, end), i, end));
                i = end;
            } else if (c == '@') {
                int end = variableEnd(sql, i, noBackslashEscapes);
                out.add(new Token(Type.VARIABLE, latin1(sql, i, end), i, end));
                i = end;
            } else if (wordByte(c)) {
                int end = i;
                while (end < n && wordByte(sql[end] & 0xFF)) {
                    end++;
                }
                out.add(new Token(Type.WORD, decode(sql, i, end, identifiers), i, end));
                i = end;
            } else {
                out.add(new Token(Type.PUNCT, String.valueOf((char) c), i, i + 1));
                i++;
            }
        }
        return out;
    }

    static boolean wordByte(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80;
    }

    /** Offset just past the marker of {@code /*!NNNNN} or {@code /*M!NNNNNN}, or -1 for a plain comment. */
    private static int executableCommentBody(byte[] sql, int i) {
        int j = i + 2;
        if (j < sql.length && sql[j] == 'M' && j + 1 < sql.length && sql[j + 1] == '!') {
            j += 2;
        } else if (j < sql.length && sql[j] == '!') {
            j++;
        } else {
            return -1;
        }
        while (j < sql.length && sql[j] >= '0' && sql[j] <= '9') {
            j++;
        }
        return j;
    }

    private static int skipComment(byte[] sql, int from) {
        for (int j = from; j + 1 < sql.length; j++) {
            if (sql[j] == '*' && sql[j + 1] == '/') {
                return j + 2;
            }
        }
        return sql.length;
    }

    /** Offset just past the quote that closes the one at {@code i}; a doubled quote is part of the text. */
    private static int closing(byte[] sql, int i, byte quote, boolean backslash) {
        int j = i + 1;
        while (j < sql.length) {
            byte b = sql[j];
            if (backslash && b == '\\') {
                j += 2;
            } else if (b == quote) {
                if (j + 1 < sql.length && sql[j + 1] == quote) {
                    j += 2;
                } else {
                    return j + 1;
                }
            } else {
                j++;
            }
        }
        return sql.length;
    }

    private static int variableEnd(byte[] sql, int i, boolean noBackslashEscapes) {
        int j = i + 1;
        if (j < sql.length && sql[j] == '@') {
            j++; // @@system_variable, possibly @@global.name
        }
        if (j < sql.length && (sql[j] == '`' || sql[j] == '\'' || sql[j] == '"')) {
            return closing(sql, j, sql[j], sql[j] != '`' && !noBackslashEscapes);
        }
        while (j < sql.length && (wordByte(sql[j] & 0xFF) || sql[j] == '.')) {
            j++;
        }
        return j;
    }

    private static String unquote(byte[] sql, int start, int end, byte quote, Charset identifiers) {
        int innerEnd = end > start + 1 && sql[end - 1] == quote ? end - 1 : end;
        String s = decode(sql, start + 1, innerEnd, identifiers);
        String q = String.valueOf((char) quote);
        return s.replace(q + q, q);
    }

    private static String decode(byte[] sql, int start, int end, Charset charset) {
        for (int j = start; j < end; j++) {
            if (sql[j] < 0) {
                return new String(sql, start, end - start, charset);
            }
        }
        return new String(sql, start, end - start, StandardCharsets.US_ASCII);
    }

    private static String latin1(byte[] sql, int start, int end) {
        return new String(sql, start, end - start, StandardCharsets.ISO_8859_1);
    }
}
