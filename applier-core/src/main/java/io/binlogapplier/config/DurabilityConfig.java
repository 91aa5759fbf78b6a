package io.binlogapplier.config;

import java.time.Duration;

/**
 * The {@code durability:} section: the target's flush settings while applying.
 *
 * @param mode relaxed, relaxed_while_lagging or unchanged
 * @param lagThreshold relaxed_while_lagging: relax once the lag reaches this
 * @param strictAfter relaxed_while_lagging: go back to the original settings once the lag stayed
 *     below {@code lagThreshold} this long
 */
public record DurabilityConfig(DurabilityMode mode, Duration lagThreshold, Duration strictAfter) {
    public static final DurabilityConfig DEFAULT = new DurabilityConfig(DurabilityMode.RELAXED, Duration.ofSeconds(10),
        Duration.ofMinutes(1));
}
