package io.binlogapplier.config;

import io.binlogapplier.ExitCode;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The filter: section: defaults, and every mistake named with its key path and the CONFIG exit code. */
class FilterConfigTest {
    private static final String BASE = """
        source:
          host: 127.0.0.1
          user: repl
          server_id: 4242
        target:
          host: 127.0.0.1
          user: root
        """;

    private static ApplierConfig parse(String yaml) {
        return new ConfigLoader(Map.<String, String>of()::get).parse(yaml, "test.yml", "orders");
    }

    private static ConfigException problems(String filter) {
        try {
            parse(BASE + filter);
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("expected the configuration to be rejected");
    }

    @Test
    void withoutAFilterSectionEveryTableIsAppliedUnderItsOwnName() {
        FilterConfig f = parse(BASE).filter();

        assertThat(f.include()).isEmpty();
        assertThat(f.exclude()).isEmpty();
        assertThat(f.rename()).isEmpty();
    }

    @Test
    void theIssuesExampleLoads() {
        FilterConfig f = parse(BASE + """
            filter:
              include: ["shop.*", "crm.customers", "app_%.orders"]
              exclude: ["shop.tmp_*", "*.audit_log"]
              rename: { shop: shop_replica }
            """).filter();

        assertThat(f.include()).extracting(TablePattern::text).containsExactly("shop.*", "crm.customers", "app_%.orders");
        assertThat(f.exclude()).extracting(TablePattern::text).containsExactly("shop.tmp_*", "*.audit_log");
        assertThat(f.rename()).containsExactly(Map.entry("shop", "shop_replica"));
    }

    @Test
    void badPatternsAreNamedByTheirIndex() {
        ConfigException e = problems("""
            filter:
              include: ["shop", "a.b.c", ".t", "shop.", "`shop`.t", "ok.*", 5, [x]]
              exclude: ["shop. t"]
            """);

        assertThat(e.problems()).containsExactly(
            "filter.include[7]: must be a text value, not a list",
            "filter.include[0]: must be schema.table (use 'shop.*' for every table of shop), not 'shop'",
            "filter.include[1]: must hold exactly one '.' between schema and table, not 'a.b.c'",
            "filter.include[2]: needs a schema and a table part (use '*' for any), not '.t'",
            "filter.include[3]: needs a schema and a table part (use '*' for any), not 'shop.'",
            "filter.include[4]: may hold only letters, digits, '_', '$', '-' and the wildcards '*', '%', '?' (names"
                + " without quotes), not '`shop`.t'",
            "filter.include[6]: must be schema.table (use 'shop.*' for every table of shop), not '5'",
            "filter.exclude[0]: may hold only letters, digits, '_', '$', '-' and the wildcards '*', '%', '?' (names"
                + " without quotes), not 'shop. t'");
        assertThat(e.asApplierException().exitCode()).isEqualTo(ExitCode.CONFIG);
        assertThat(e.asApplierException().exitCode().code()).isEqualTo(3);
    }

    @Test
    void wrongShapesAndUnknownKeysAreProblems() {
        ConfigException e = problems("""
            filter:
              include: "shop.*"
              rename: [shop]
              exlcude: ["x.*"]
            """);

        assertThat(e.problems()).containsExactlyInAnyOrder(
            "filter.include: must be a list such as [\"a\", \"b\"], not 'shop.*'",
            "filter.rename: must be a mapping such as { a: b }, not a list",
            "filter.exlcude: unknown key (see config/example.yml for the keys there are)");
    }

    @Test
    void renameMistakesAreNamedByTheirSourceSchema() {
        ConfigException e = problems("""
            filter:
              rename:
                shop: shop
                a: x
                b: X
                Crm: c1
                crm: c2
                s1: binlog_applier
                binlog_applier: s2
                "sh*p": s3
                s4: "`quoted`"
                s5: ""
            """);

        assertThat(e.problems()).containsExactly(
            "filter.rename.shop: renames 'shop' to itself; leave it out",
            "filter.rename.b: 'X' is also the target of filter.rename.a: two source schemas cannot share one target"
                + " schema",
            "filter.rename.crm: names the same source schema as filter.rename.Crm (names are compared without regard"
                + " to case)",
            "filter.rename.s1: the target 'binlog_applier' is target.state_schema, which holds the applier's"
                + " position; choose another name",
            "filter.rename.binlog_applier: 'binlog_applier' is target.state_schema, which is never replicated; leave"
                + " it out",
            "filter.rename.sh*p: the source schema must be a plain name (letters, digits, '_', '$', '-'; no wildcards"
                + " or quotes), not 'sh*p'",
            "filter.rename.s4: the target schema must be a plain name (letters, digits, '_', '$', '-'; no wildcards"
                + " or quotes), not '`quoted`'",
            "filter.rename.s5: the target schema must be a plain name (letters, digits, '_', '$', '-'; no wildcards"
                + " or quotes), not ''");
        assertThat(e.asApplierException().exitCode()).isEqualTo(ExitCode.CONFIG);
    }

    @Test
    void theStateSchemaCannotBeIncludedAndPatternsMustNameSourceSchemas() {
        ConfigException e = problems("""
            filter:
              include: ["binlog_applier.*", "shop_replica.*", "crm.*", "binlog_%.*"]
              exclude: ["shop_replica.tmp"]
              rename: { shop: shop_replica }
            """);

        assertThat(e.problems()).containsExactly(
            "filter.include[0]: 'binlog_applier.*' names target.state_schema, which holds the applier's position and"
                + " is never replicated; leave it out",
            "filter.include[1]: 'shop_replica.*' names the target schema of filter.rename.shop; patterns match source"
                + " names: write 'shop.*'",
            "filter.exclude[0]: 'shop_replica.tmp' names the target schema of filter.rename.shop; patterns match"
                + " source names: write 'shop.tmp'");
    }

    @Test
    void aRenameChainIsNotTwoSourcesOnOneTarget() {
        FilterConfig f = parse(BASE + """
            filter:
              include: ["a.*", "b.*"]
              rename: { a: b, b: c }
            """).filter();

        assertThat(f.rename()).containsEntry("a", "b").containsEntry("b", "c");
        assertThat(f.include()).hasSize(2);
    }

    @Test
    void theStateSchemaIsTheOneTheTargetSectionNames() {
        ConfigException e;
        try {
            parse(BASE.replace("  user: root\n", "  user: root\n  state_schema: st\n") + """
                filter:
                  rename: { a: st, binlog_applier: b }
                """);
            throw new AssertionError("expected the configuration to be rejected");
        } catch (ConfigException c) {
            e = c;
        }

        assertThat(e.problems()).containsExactly("filter.rename.a: the target 'st' is target.state_schema, which holds"
            + " the applier's position; choose another name");
    }

    @Test
    void theExampleFileLoadsWithTheFilterDefaults() throws java.io.IOException {
        java.nio.file.Path example = java.nio.file.Path.of("..", "config", "example.yml");
        String yaml = java.nio.file.Files.readString(example);

        ApplierConfig c = new ConfigLoader(Map.<String, String>of()::get).parse(yaml, example.toString(), "example");

        assertThat(yaml).contains("filter:", "include:", "exclude:", "rename:");
        assertThat(c.filter()).isEqualTo(FilterConfig.NONE);
    }
}
