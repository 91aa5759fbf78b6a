package io.binlogapplier.binlog;

/**
 * The session context a QUERY event carries in its status variables (MySQL
 * {@code Query_log_event::write}, MariaDB adds Q_HRNOW and Q_XID). A null field was absent.
 *
 * @param flags2 Q_FLAGS2: autocommit, foreign_key_checks, unique_checks (OPTION_* bits)
 * @param sqlMode Q_SQL_MODE as the source's numeric bitmask
 * @param clientCharset Q_CHARSET: character_set_client collation id
 * @param connectionCollation Q_CHARSET: collation_connection id
 * @param serverCollation Q_CHARSET: collation_server id
 * @param timeZone Q_TIME_ZONE, written only when the statement used the session time zone
 * @param micros fractional seconds of the statement's start (Q_MICROSECONDS / MariaDB Q_HRNOW)
 */
public record QueryStatus(
    Long flags2,
    Long sqlMode,
    Integer clientCharset,
    Integer connectionCollation,
    Integer serverCollation,
    String timeZone,
    Integer autoIncrementIncrement,
    Integer autoIncrementOffset,
    Integer databaseCollation,
    Integer micros,
    Integer explicitDefaultsForTimestamp,
    Integer defaultCollationForUtf8mb4
) {
    public static final long OPTION_AUTO_IS_NULL = 1L << 14;
    public static final long OPTION_NOT_AUTOCOMMIT = 1L << 19;
    public static final long OPTION_NO_FOREIGN_KEY_CHECKS = 1L << 26;
    public static final long OPTION_RELAXED_UNIQUE_CHECKS = 1L << 27;

    public static final QueryStatus EMPTY =
        new QueryStatus(null, null, null, null, null, null, null, null, null, null, null, null);
}
