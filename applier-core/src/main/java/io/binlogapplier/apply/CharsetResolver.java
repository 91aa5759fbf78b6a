package io.binlogapplier.apply;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * Decodes statement text written in the source session's client character set (a collation id in
 * the QUERY event). The ids come from the target's {@code information_schema.COLLATIONS}; MySQL's
 * charset names map to Java's below ({@code latin1} is Windows-1252 in MySQL).
 */
public final class CharsetResolver {
    private static final Map<String, String> JAVA_NAMES = Map.ofEntries(
        Map.entry("utf8", "UTF-8"), Map.entry("utf8mb3", "UTF-8"), Map.entry("utf8mb4", "UTF-8"),
        Map.entry("latin1", "windows-1252"), Map.entry("ascii", "US-ASCII"), Map.entry("gbk", "GBK"),
        Map.entry("gb2312", "GB2312"), Map.entry("gb18030", "GB18030"), Map.entry("big5", "Big5"),
        Map.entry("sjis", "Shift_JIS"), Map.entry("cp932", "windows-31j"), Map.entry("ujis", "EUC-JP"),
        Map.entry("eucjpms", "x-eucJP-Open"), Map.entry("euckr", "EUC-KR"), Map.entry("cp1250", "windows-1250"),
        Map.entry("cp1251", "windows-1251"), Map.entry("cp1256", "windows-1256"), Map.entry("cp1257", "windows-1257"),
        Map.entry("latin2", "ISO-8859-2"), Map.entry("latin5", "ISO-8859-9"), Map.entry("latin7", "ISO-8859-13"),
        Map.entry("greek", "ISO-8859-7"), Map.entry("hebrew", "ISO-8859-8"), Map.entry("koi8r", "KOI8-R"),
        Map.entry("koi8u", "KOI8-U"), Map.entry("cp850", "IBM850"), Map.entry("cp852", "IBM852"),
        Map.entry("cp866", "IBM866"), Map.entry("tis620", "TIS-620"), Map.entry("macroman", "x-MacRoman"));

    private final Map<Integer, String> charsetById;

    public CharsetResolver(Map<Integer, String> charsetById) {
        this.charsetById = Map.copyOf(charsetById);
    }

    public static CharsetResolver load(Connection c) throws SQLException {
        Map<Integer, String> ids = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT ID, CHARACTER_SET_NAME FROM information_schema.COLLATIONS")) {
            while (rs.next()) {
                // MariaDB 10.10+ lists UCA-14 collations without an id (they are aliases): skip those.
                int id = rs.getInt(1);
                if (!rs.wasNull() && rs.getString(2) != null) {
                    ids.put(id, rs.getString(2));
                }
            }
        }
        return new CharsetResolver(ids);
    }

    /** The MySQL character set of a collation id, or null when the target does not know it. */
    public String charsetOf(int collationId) {
        return charsetById.get(collationId);
    }

    /**
     * Decodes statement bytes; throws {@link CharacterCodingException} rather than guess when the
     * bytes are not valid in that character set.
     *
     * @param collationId the source session's character_set_client, or null (utf8 assumed)
     */
    public String decode(byte[] sql, Integer collationId) throws CharacterCodingException {
        if (isAscii(sql)) {
            return new String(sql, StandardCharsets.US_ASCII);
        }
        String mysqlName = collationId == null ? "utf8mb4" : charsetById.get(collationId);
        String javaName = mysqlName == null ? null : JAVA_NAMES.get(mysqlName);
        if (javaName == null) {
            throw new CharacterCodingException() {
                private static final long serialVersionUID = 1L;

                @Override
                public String getMessage() {
                    return "statement text in character set " + (mysqlName == null ? "#" + collationId : mysqlName)
                        + ", which binlog-applier cannot decode";
                }
            };
        }
        return Charset.forName(javaName).newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(sql)).toString();
    }

    private static boolean isAscii(byte[] b) {
        for (byte x : b) {
            if (x < 0) {
                return false;
            }
        }
        return true;
    }
}
