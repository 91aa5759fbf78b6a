package io.binlogapplier.config;

import java.util.List;
import java.util.Map;

/**
 * The {@code filter:} section: which source tables are applied, and under which target schema.
 * Patterns match the source's names (before {@code rename}). See README "Filters" for the rules.
 *
 * @param include a table is applied only if it matches one of these; empty: every table
 * @param exclude a table matching one of these is never applied
 * @param rename source schema → target schema (plain names, compared without regard to case)
 */
public record FilterConfig(List<TablePattern> include, List<TablePattern> exclude, Map<String, String> rename) {
    public static final FilterConfig NONE = new FilterConfig(List.of(), List.of(), Map.of());

    public FilterConfig {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
        rename = Map.copyOf(rename);
    }
}
