package io.binlogapplier.filter;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.FilterConfig;
import io.binlogapplier.config.TablePattern;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The filter rules (README "Filters"): a source table is applied when it matches some
 * {@code filter.include} pattern (or there are none) and no {@code filter.exclude} pattern;
 * patterns match source names, before {@code filter.rename}. The source's schema named like
 * {@code target.state_schema} is never applied: it holds another applier's position, which must not
 * overwrite ours. Pure; caches its answers, so not thread-safe (the reader thread owns it).
 */
public final class ReplicationFilter {
    private static final int MAX_CACHED = 100_000;

    private final List<TablePattern> include;
    private final List<TablePattern> exclude;
    /** lower-cased source schema → target schema as written. */
    private final Map<String, String> rename = new HashMap<>();
    /** lower-cased target schema → source schema as written. */
    private final Map<String, String> renamedFrom = new HashMap<>();
    private final String stateSchema;
    private final Map<String, Boolean> tables = new HashMap<>();

    public ReplicationFilter(FilterConfig config, String stateSchema) {
        this.include = config.include();
        this.exclude = config.exclude();
        config.rename().forEach((from, to) -> {
            rename.put(from.toLowerCase(Locale.ROOT), to);
            renamedFrom.put(to.toLowerCase(Locale.ROOT), from);
        });
        this.stateSchema = stateSchema.toLowerCase(Locale.ROOT);
    }

    /** Whether changes to the source table {@code schema.table} are applied. */
    public boolean replicates(String schema, String table) {
        String key = schema + '\u0000' + table;
        Boolean cached = tables.get(key);
        if (cached != null) {
            return cached;
        }
        boolean yes = decide(schema, table);
        if (tables.size() >= MAX_CACHED) {
            tables.clear();
        }
        tables.put(key, yes);
        return yes;
    }

    private boolean decide(String schema, String table) {
        if (schema.toLowerCase(Locale.ROOT).equals(stateSchema)) {
            return false;
        }
        boolean included = include.isEmpty();
        for (TablePattern p : include) {
            if (p.matches(schema, table)) {
                included = true;
                break;
            }
        }
        if (!included) {
            return false;
        }
        for (TablePattern p : exclude) {
            if (p.matches(schema, table)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether statements about the source schema as a whole ({@code CREATE/ALTER/DROP DATABASE},
     * routines, statements decided by their default database) are applied: some include pattern's
     * schema part matches it (or there are none), and no exclude pattern covers every table of it.
     */
    public boolean replicatesSchema(String schema) {
        if (schema.toLowerCase(Locale.ROOT).equals(stateSchema)) {
            return false;
        }
        boolean included = include.isEmpty();
        for (TablePattern p : include) {
            if (p.matchesSchema(schema)) {
                included = true;
                break;
            }
        }
        if (!included) {
            return false;
        }
        for (TablePattern p : exclude) {
            if (p.everyTable() && p.matchesSchema(schema)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether some table of the source schema may be left out while the schema itself is applied: an
     * include list that names only some of its tables, or an exclude pattern in it.
     */
    public boolean mayLeaveOutTablesOf(String schema) {
        boolean whole = include.isEmpty() || include.stream().anyMatch(p -> p.everyTable() && p.matchesSchema(schema));
        return !whole || exclude.stream().anyMatch(p -> p.matchesSchema(schema));
    }

    /** Whether filter.rename names this source schema. */
    public boolean renamed(String schema) {
        return rename.containsKey(schema.toLowerCase(Locale.ROOT));
    }

    public boolean renames() {
        return !rename.isEmpty();
    }

    /**
     * The target schema for changes applied from source schema {@code schema}.
     *
     * @throws ApplierException (CONFIG) when the source schema is applied under its own name, which
     *     filter.rename also gives to another source schema: the two would be mixed in one
     */
    public String target(String schema) {
        String to = rename.get(schema.toLowerCase(Locale.ROOT));
        if (to != null) {
            return to;
        }
        String from = renamedFrom.get(schema.toLowerCase(Locale.ROOT));
        if (from != null) {
            throw new ApplierException(ExitCode.CONFIG, "the source has a schema `" + schema + "` whose changes are"
                + " applied, and filter.rename." + from + " also maps `" + from + "` onto it: two source schemas"
                + " cannot share one target schema; exclude `" + schema + ".*`, rename it too, or choose another"
                + " target for " + from);
        }
        return schema;
    }

    @Override
    public String toString() {
        return "filter: include " + (include.isEmpty() ? "every table" : include) + ", exclude " + exclude
            + ", rename " + rename + " (source schema " + stateSchema + " is never applied)";
    }
}
