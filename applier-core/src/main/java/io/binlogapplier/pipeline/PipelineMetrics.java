package io.binlogapplier.pipeline;

/** What the pipeline reports; implementations must be thread-safe. The default does nothing. */
public interface PipelineMetrics {
    PipelineMetrics NONE = new PipelineMetrics() {
    };

    default void unitCommitted(int transactions, long rows, long bytes) {
    }

    default void retried(String reason) {
    }
}
