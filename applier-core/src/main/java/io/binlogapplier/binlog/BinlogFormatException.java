package io.binlogapplier.binlog;

/** An event whose bytes do not follow the binlog format we decode. Always fatal: never skip an event. */
public final class BinlogFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BinlogFormatException(String message) {
        super(message);
    }
}
