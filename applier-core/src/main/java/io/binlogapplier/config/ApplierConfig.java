package io.binlogapplier.config;

/**
 * The whole configuration of one applier (one target), validated before anything starts.
 *
 * @param name names this applier: its row in the state table, its threads and its metrics' target tag
 * @param filter which source tables are applied, under which target schema ({@link FilterConfig#NONE}: all, as they are)
 * @param metrics where the metrics endpoint listens
 * @param durability what happens to the target's flush settings
 * @param verify how {@code verify} reads the servers
 * @param log log levels, format and the progress line
 */
public record ApplierConfig(String name, SourceConfig source, TargetConfig target, ApplyConfig apply,
                            FilterConfig filter, MetricsConfig metrics, DurabilityConfig durability,
                            VerifyConfig verify, LogConfig log) {

    /** Without {@code verify:} and {@code log:} sections: their defaults. */
    public ApplierConfig(String name, SourceConfig source, TargetConfig target, ApplyConfig apply,
                         FilterConfig filter, MetricsConfig metrics, DurabilityConfig durability) {
        this(name, source, target, apply, filter, metrics, durability, VerifyConfig.DEFAULT, LogConfig.DEFAULT);
    }

    /** This configuration with {@code apply.method} replaced (by the method {@code auto} resolved to). */
    public ApplierConfig withApplyMethod(ApplyMethod method) {
        ApplyConfig a = apply;
        return new ApplierConfig(name, source, target, new ApplyConfig(a.mode(), method, a.workers(),
            a.unitMaxTransactions(), a.unitMaxTransactionsAlone(), a.unitMaxBytes(), a.unitMaxDelay(), a.ringEntries(),
            a.ringBytes(), a.retries(), a.netEffect(), a.readAhead(), a.workersAuto(), a.leanBeforeImages(),
            a.leanAfterImages()),
            filter, metrics, durability, verify, log);
    }
}
