package io.binlogapplier.config;

/**
 * The whole configuration of one applier (one target), validated before anything starts.
 *
 * @param name names this applier: its row in the state table, its threads and its metrics' target tag
 * @param metrics where the metrics endpoint listens
 * @param durability what happens to the target's flush settings
 */
public record ApplierConfig(String name, SourceConfig source, TargetConfig target, ApplyConfig apply,
                            MetricsConfig metrics, DurabilityConfig durability) {
}
