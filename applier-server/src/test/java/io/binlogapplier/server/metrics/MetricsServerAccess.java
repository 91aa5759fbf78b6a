package io.binlogapplier.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;

/** Test access to the package's meter set-up. */
public final class MetricsServerAccess {
    private MetricsServerAccess() {
    }

    public static void bindJvmMeters(MeterRegistry registry, String target) {
        JvmMeters.bind(registry, target);
    }
}
