package io.binlogapplier.config;

/** How row changes reach the target ({@code apply.method}). */
public enum ApplyMethod {
    /** Server-side prepared INSERT/UPDATE/DELETE statements. Works with any target and privileges. */
    SQL,
    /**
     * {@code BINLOG '<base64>'} statements carrying the source's row events: the target applies them
     * with its own replication code. Needs the BINLOG REPLAY privilege (SUPER before MariaDB 10.5) and a
     * target of the source's kind.
     */
    BINLOG,
    /**
     * The default: {@link #BINLOG} when the target allows it, else {@link #SQL}; decided once at start
     * by {@link io.binlogapplier.apply.MethodChoice}. Never reaches a pipeline unresolved.
     */
    AUTO
}
