package io.binlogapplier.verify;

import java.util.List;

/**
 * What verify found for one table. Immutable.
 *
 * @param source {@code schema.table} on the source
 * @param target {@code schema.table} on the target
 * @param rows rows of the source read (in the last attempt of each chunk)
 * @param chunks how many key-range chunks were compared
 * @param result the table's result: DIFFERS if any chunk differs, else UNVERIFIED if any could not be confirmed
 * @param reason why it is not MATCH, in one line; empty for MATCH
 * @param differences one line per differing chunk: its key range and the rows that differ
 */
public record TableResult(String source, String target, long rows, int chunks, Result result, String reason,
                          List<String> differences) {

    public enum Result { MATCH, DIFFERS, UNVERIFIED }

    public TableResult {
        differences = List.copyOf(differences);
    }
}
