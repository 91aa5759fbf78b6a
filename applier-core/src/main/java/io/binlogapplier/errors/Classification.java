package io.binlogapplier.errors;

import io.binlogapplier.ExitCode;

import java.util.Objects;

/**
 * What {@link ErrorClassifier} says about one failure.
 *
 * @param action what to do now
 * @param exitCode the exit code if the failure ends the run (for {@link Action#RECONNECT}, once
 *     reconnecting gives up; for {@link Action#RETRY}, once retries run out)
 * @param reason a short, stable snake_case tag for logs and metrics labels
 * @param fix what the operator should do, phrased to follow a colon in a one-line message
 */
public record Classification(Action action, ExitCode exitCode, String reason, String fix) {

    /** What to do about a failure. */
    public enum Action {
        /** Lost a lock conflict or timed out waiting: roll back, retry the unit on the same connection. */
        RETRY,
        /** The connection broke or the server went away: reconnect, then retry. */
        RECONNECT,
        /** Retrying cannot help: stop with {@link #exitCode()}. */
        FATAL
    }

    public Classification {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(fix, "fix");
    }
}
