package io.binlogapplier.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * Micrometer's JVM and process meters, tagged {@code target} like the applier's own: memory
 * ({@code jvm_memory_used_bytes{area,id}}, …), GC ({@code jvm_gc_pause_seconds}, …), threads,
 * class loading, CPU ({@code process_cpu_usage}), open files ({@code process_files_open_files})
 * and uptime ({@code process_uptime_seconds}, {@code process_start_time_seconds}).
 */
final class JvmMeters {
    private JvmMeters() {
    }

    // The GC binder listens for GC notifications for the life of the JVM (one endpoint per process):
    // it is never closed, so its AutoCloseable is deliberately left open.
    @SuppressWarnings("resource")
    static void bind(MeterRegistry registry, String target) {
        Tags tags = Tags.of("target", target);
        new JvmMemoryMetrics(tags).bindTo(registry);
        new JvmGcMetrics(tags).bindTo(registry);
        new JvmThreadMetrics(tags).bindTo(registry);
        new ClassLoaderMetrics(tags).bindTo(registry);
        new ProcessorMetrics(tags).bindTo(registry);
        new FileDescriptorMetrics(tags).bindTo(registry);
        new UptimeMetrics(tags).bindTo(registry);
    }
}
