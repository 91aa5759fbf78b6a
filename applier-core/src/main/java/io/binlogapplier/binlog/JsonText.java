package io.binlogapplier.binlog;

/**
 * A MySQL JSON cell, converted from MySQL's binary JSON to its text form at the boundary. (MariaDB's
 * JSON is LONGTEXT and arrives as plain bytes, never as this.)
 *
 * @param text the document as MySQL prints it
 * @param opaque the document holds an opaque scalar (DECIMAL, DATE, TIME, DATETIME, TIMESTAMP, a
 *     binary string …): its text is exact, but MySQL parses that text back as a number or a string,
 *     not as the typed scalar ({@code JSON_TYPE} DECIMAL becomes DOUBLE, DATETIME becomes STRING), so
 *     only the binary value itself reproduces the document on a MySQL target; so does an unsigned
 *     integer (UNSIGNED INTEGER is read back as INTEGER)
 */
public record JsonText(String text, boolean opaque) {
    public JsonText(String text) {
        this(text, false);
    }
}
