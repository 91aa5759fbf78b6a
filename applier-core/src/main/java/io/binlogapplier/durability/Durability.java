package io.binlogapplier.durability;

import io.binlogapplier.ExitCode;
import io.binlogapplier.config.DurabilityConfig;
import io.binlogapplier.config.DurabilityMode;
import io.binlogapplier.errors.ErrorClassifier;
import io.binlogapplier.errors.Messages;
import io.binlogapplier.errors.Side;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * The target's flush settings while an applier runs ({@code durability:}).
 *
 * <ul>
 *   <li>{@code relaxed}: at {@link #begin} the original values are saved in the state schema, then
 *       {@code innodb_flush_log_at_trx_commit=2} and {@code sync_binlog=0} are set; {@link #end}
 *       puts the originals back. A start that finds originals saved by a run that did not stop
 *       cleanly keeps them (the values it sees are that run's relaxed ones).</li>
 *   <li>{@code relaxed_while_lagging}: originals at start; a thread ({@code applier-<name>-durability})
 *       relaxes them while the lag is high ({@link FlushPolicy}).</li>
 *   <li>{@code unchanged}: nothing is changed; originals a crashed run left saved are put back.</li>
 * </ul>
 * Several appliers on one target: the first to relax saves the originals, later ones copy that row;
 * an applier that stops puts the originals back only when no other applier still holds a row.
 *
 * <p>Changing these settings is an optimisation: no failure here stops the applier. A target user
 * without the privilege (SUPER, or SYSTEM_VARIABLES_ADMIN on MySQL 8) gets one warning and the
 * target's own settings.
 */
public final class Durability implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Durability.class);
    static final long CHECK_MILLIS = 1000;
    /** relaxed_while_lagging: the pause after relaxing failed because the target could not be reached. */
    static final long RETRY_RELAX_MILLIS = 10_000;

    /** Target connections (returned to the pool by closing them). */
    public interface Connections {
        Connection get() throws SQLException;
    }

    /** Told what happened, for the status and the metrics. */
    public interface Listener {
        /** This applier now holds the target's flush settings relaxed (true) or not (false). */
        void relaxed(boolean relaxed);

        /** A one-line warning: the settings could not be read or changed. */
        void warning(String message);
    }

    private final DurabilityConfig config;
    private final String name;
    private final FlushStore store;
    private final Connections connections;
    private final Listener listener;
    private volatile boolean gaveUp;
    /** This applier holds the target's settings relaxed (it relaxed them and has not put them back). */
    private volatile boolean held;
    private Thread controller;

    public Durability(DurabilityConfig config, String schema, String name, Connections connections, Listener listener) {
        this.config = config;
        this.name = name;
        this.store = new FlushStore(schema, name);
        this.connections = connections;
        this.listener = listener;
    }

    /** Applies the mode at the start of a run; in relaxed_while_lagging starts watching {@code lagSeconds}. */
    public void begin(DoubleSupplier lagSeconds) {
        if (config.mode() == DurabilityMode.RELAXED) {
            relax();
            return;
        }
        restore();
        if (config.mode() == DurabilityMode.RELAXED_WHILE_LAGGING) {
            FlushPolicy policy = new FlushPolicy(config.lagThreshold(), config.strictAfter());
            controller = new Thread(() -> watch(policy, lagSeconds), "applier-" + name + "-durability");
            controller.setDaemon(true);
            controller.start();
        }
    }

    /** Ends the run: stops watching and puts the original settings back (if this applier holds them). */
    public void end() {
        stopWatching();
        restore();
    }

    @Override
    public void close() {
        end();
    }

    /**
     * A lost target came back. A restarted server starts with its configured flush settings, not the
     * relaxed ones this applier set: set them again (the originals stay saved from the first time), or
     * for the first time when the target could not be reached before.
     */
    public void targetReconnected() {
        // Also when relaxing failed because the target could not be reached (relaxed mode tries at start only).
        if (!gaveUp && (held || config.mode() == DurabilityMode.RELAXED)) {
            relax();
        }
    }

    private void watch(FlushPolicy policy, DoubleSupplier lagSeconds) {
        try {
            while (!Thread.currentThread().isInterrupted() && !gaveUp) {
                Thread.sleep(CHECK_MILLIS);
                double lag = lagSeconds.getAsDouble();
                switch (policy.next(lag, System.nanoTime())) {
                    case RELAX -> {
                        log.info("lag {} s reached durability.lag_threshold {} s: relaxing the target's flush settings",
                            String.format(java.util.Locale.ROOT, "%.1f", lag), config.lagThreshold().toSeconds());
                        if (!relax()) {
                            policy.relaxFailed();
                            Thread.sleep(RETRY_RELAX_MILLIS); // one warning per attempt: not every second of an outage
                        }
                    }
                    case STRICT -> {
                        log.info("lag stayed under durability.lag_threshold for {} s: putting the target's flush"
                            + " settings back", config.strictAfter().toSeconds());
                        restore();
                    }
                    default -> {
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stopWatching() {
        Thread t = controller;
        if (t == null) {
            return;
        }
        controller = null;
        t.interrupt();
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Saves the originals (unless already saved), then relaxes.
     *
     * @return whether the settings are relaxed now; false also when the target could not be reached,
     *     which is tried again later (a check of relaxed_while_lagging, a reconnect), unlike a refusal
     */
    synchronized boolean relax() {
        try (Connection c = connections.get()) {
            store.ensureTable(c);
            boolean locked = store.lock(c);
            try {
                Map<String, FlushSettings> saved = store.saved(c);
                FlushSettings mine = saved.remove(name);
                FlushSettings current = store.current(c);
                boolean savedNow = false;
                if (mine == null) {
                    // Another applier's row holds the values from before anyone relaxed them.
                    mine = saved.isEmpty() ? current : saved.values().iterator().next();
                    store.save(c, mine);
                    savedNow = true;
                } else if (!held) {
                    log.info("found the target's original flush settings ({}) saved by a run that did not stop cleanly;"
                        + " they are put back at stop", mine);
                }
                if (!current.equals(FlushSettings.RELAXED)) {
                    try {
                        store.set(c, FlushSettings.RELAXED);
                    } catch (SQLException e) {
                        undo(c, mine, current, savedNow);
                        gaveUp = true;
                        warn(cannot("relax", e) + ": applying with the target's own settings (" + current
                            + "); grant the privilege, or set durability.mode: unchanged");
                        return false;
                    }
                    log.info("relaxed the target's flush settings ({} -> {}); the originals are saved in {} and put back"
                        + " at stop", current, FlushSettings.RELAXED, store.table());
                }
                held = true;
                listener.relaxed(true);
                return true;
            } finally {
                if (locked) {
                    store.unlock(c);
                }
            }
        } catch (SQLException e) {
            if (io.binlogapplier.errors.ErrorClassifier.classify(e, io.binlogapplier.errors.Side.TARGET).action()
                == io.binlogapplier.errors.Classification.Action.RECONNECT) {
                // The target is out of reach for now: no reason to give up; tried again when it is back.
                // Settings this run already relaxed stay as they were (a read-only target refuses the bookkeeping,
                // not the settings): say so rather than claim the target's own settings apply.
                warn(cannot("relax", e) + (held ? ": they stay relaxed as they were, and are put back at stop"
                    : ": applying with the target's own settings until it is back (reachable and writable)"));
                return false;
            }
            gaveUp = true;
            warn(cannot("relax", e) + ": applying with the target's own settings");
            return false;
        }
    }

    /** Puts the originals back if this applier saved them, unless another applier still holds them relaxed. */
    synchronized void restore() {
        try (Connection c = connections.get()) {
            store.ensureTable(c);
            boolean locked = store.lock(c);
            try {
                Map<String, FlushSettings> saved = store.saved(c);
                FlushSettings mine = saved.remove(name);
                if (mine == null) {
                    return;
                }
                if (!saved.isEmpty()) {
                    log.info("left the target's flush settings relaxed: applier(s) {} still hold them; the last to stop"
                        + " puts back {}", String.join(", ", saved.keySet()), mine);
                } else {
                    FlushSettings current = store.current(c);
                    if (!current.equals(mine)) {
                        store.set(c, mine);
                        log.info("put the target's flush settings back ({} -> {})", current, mine);
                    }
                }
                // Only now: a crash before this line leaves the row, and the next start puts them back.
                store.forget(c);
                held = false;
                listener.relaxed(false);
            } finally {
                if (locked) {
                    store.unlock(c);
                }
            }
        } catch (SQLException e) {
            warn(cannot("put back", e) + "; they are put back at the next start (or set them by hand"
                + " and delete this applier's row from " + store.table() + ")");
        }
    }

    private void undo(Connection c, FlushSettings originals, FlushSettings current, boolean savedNow) {
        try {
            if (!store.current(c).equals(current)) {
                store.set(c, originals); // one of the two changed before the other failed
            }
            if (savedNow) {
                store.forget(c);
            }
        } catch (SQLException e) {
            log.debug("undoing a half-done relax: {}", e.toString());
        }
    }

    private void warn(String message) {
        log.warn("{}", message);
        listener.warning(message);
    }

    private static String cannot(String what, SQLException e) {
        String m = Messages.firstLine(e.getMessage());
        String hint = ErrorClassifier.classify(e, Side.TARGET).exitCode() == ExitCode.TARGET_PRIVILEGE
            ? " (the target user needs SUPER, or SYSTEM_VARIABLES_ADMIN on MySQL 8)" : "";
        return "cannot " + what + " the target's flush settings innodb_flush_log_at_trx_commit and sync_binlog"
            + hint + ": " + m;
    }
}
