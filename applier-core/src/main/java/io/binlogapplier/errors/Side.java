package io.binlogapplier.errors;

import io.binlogapplier.ExitCode;

/**
 * Which server a failure came from. The same error means different things on each side: a
 * server error on the source's binlog connection is worth a reconnect, the same number from a
 * statement on the target stops the applier with the exit code naming the cause.
 */
public enum Side {
    SOURCE(ExitCode.SOURCE_UNREACHABLE, ExitCode.SOURCE_ACCESS_DENIED, ExitCode.SOURCE_PRIVILEGE),
    TARGET(ExitCode.TARGET_UNREACHABLE, ExitCode.TARGET_ACCESS_DENIED, ExitCode.TARGET_PRIVILEGE);

    private final ExitCode unreachable;
    private final ExitCode accessDenied;
    private final ExitCode privilege;

    Side(ExitCode unreachable, ExitCode accessDenied, ExitCode privilege) {
        this.unreachable = unreachable;
        this.accessDenied = accessDenied;
        this.privilege = privilege;
    }

    /** The exit code for "this server cannot be reached": the one failure a reconnect may cure. */
    public ExitCode unreachable() {
        return unreachable;
    }

    /** The exit code for "this server refused the user or password". */
    public ExitCode accessDenied() {
        return accessDenied;
    }

    /** The exit code for "this server's user lacks a privilege". */
    public ExitCode privilege() {
        return privilege;
    }
}
