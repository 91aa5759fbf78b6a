package io.binlogapplier.binlog;

/**
 * A MySQL JSON cell, converted from MySQL's binary JSON to its text form at the boundary. (MariaDB's
 * JSON is LONGTEXT and arrives as plain bytes, never as this.)
 */
public record JsonText(String text) {
}
