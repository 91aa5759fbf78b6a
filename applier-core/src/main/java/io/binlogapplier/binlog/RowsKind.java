package io.binlogapplier.binlog;

/** What a rows event does to its rows. */
public enum RowsKind { INSERT, UPDATE, DELETE }
