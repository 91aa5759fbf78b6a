package io.binlogapplier.binlog;

import com.github.shyiko.mysql.binlog.network.ServerException;
import io.binlogapplier.ApplierException;
import io.binlogapplier.errors.Classification;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import io.binlogapplier.tls.TlsFailures;

import java.sql.SQLException;

/**
 * Turns what the source connection throws into one-line messages naming cause and fix, with the
 * exit code {@link ErrorClassifier} gives it on the {@link Side#SOURCE source side}. Pure: takes
 * the throwable, returns the verdict.
 */
public final class SourceErrors {
    private SourceErrors() {
    }

    /** True when the failure may clear by itself (network, restart of the source): worth a reconnect. */
    public static boolean isTransient(ApplierException e) {
        return ErrorClassifier.classify(e, Side.SOURCE).action() == Classification.Action.RECONNECT;
    }

    /**
     * @param address host:port of the source
     * @param user the configured user
     * @param from the position we asked for, for messages about missing positions
     */
    public static ApplierException classify(Throwable t, String address, String user, String from) {
        return classify(t, address, user, from, null);
    }

    /**
     * As {@link #classify(Throwable, String, String, String)}; {@code readTimeout}, when not null, is the
     * binlog stream's read timeout, named in the message of a read that timed out (a silent source).
     */
    public static ApplierException classify(Throwable t, String address, String user, String from,
                                            java.time.Duration readTimeout) {
        Throwable root = ErrorClassifier.rootOf(t);
        if (root instanceof ApplierException) {
            return ApplierException.of(t); // already said what it is
        }
        ApplierException tls = TlsFailures.of(t, Side.SOURCE, address);
        if (tls != null) {
            return tls; // no TLS, an untrusted certificate, another host's: no reconnect helps
        }
        Classification c = ErrorClassifier.classify(root, Side.SOURCE);
        String m = Messages.firstLine(root.getMessage());
        String message = switch (c.exitCode()) {
            case SOURCE_UNSUPPORTED -> "could not decode the source's binlog: " + root.getMessage();
            case SOURCE_ACCESS_DENIED -> "source " + address + " refused user '" + user + "' (" + m + "): " + c.fix();
            case SOURCE_SERVER_ID_IN_USE -> "source " + address + " says another replica uses our server_id (" + m
                + "): " + c.fix();
            case SOURCE_POSITION_UNAVAILABLE -> "source " + address + " cannot send from " + from + " (" + m + "): "
                + c.fix();
            case SOURCE_PRIVILEGE -> "source user '" + user + "' lacks a privilege (" + m + "): " + c.fix();
            case SOURCE_UNREACHABLE -> switch (c.reason()) {
                case "unknown_host" -> "cannot resolve source host '" + root.getMessage() + "': " + c.fix();
                case "server_error" -> "source " + address + " reported error " + errorCode(root) + " (" + m + ")";
                case "io_error" -> "lost the source " + address + " (" + m + ")";
                case "timeout" -> readTimeout == null ? "cannot reach source " + address + " (" + m + "): " + c.fix()
                    : "source " + address + " sent nothing, not even a heartbeat, for " + readTimeout.toMillis()
                    + " ms (source.read_timeout): the network to it is down or it hangs; reconnecting";
                default -> "cannot reach source " + address + " (" + m + "): " + c.fix();
            };
            default -> null; // not the source's doing (a bug): reported as such below
        };
        return message == null ? ApplierException.of(t) : new ApplierException(c.exitCode(), message, t);
    }

    private static int errorCode(Throwable root) {
        if (root instanceof ServerException se) {
            return se.getErrorCode();
        }
        return root instanceof SQLException se ? se.getErrorCode() : 0;
    }
}
