package io.binlogapplier.config;

/**
 * The whole configuration of one applier (one target), validated before anything starts.
 *
 * @param name names this applier: its row in the state table, its threads and its metrics' target tag
 */
public record ApplierConfig(String name, SourceConfig source, TargetConfig target, ApplyConfig apply) {
}
