package io.binlogapplier.filter;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.FilterConfig;
import io.binlogapplier.config.TablePattern;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicationFilterTest {
    static ReplicationFilter filter(List<String> include, List<String> exclude, Map<String, String> rename) {
        return new ReplicationFilter(new FilterConfig(include.stream().map(TablePattern::parse).toList(),
            exclude.stream().map(TablePattern::parse).toList(), rename), "binlog_applier");
    }

    @Test
    void withoutIncludesEveryTableButTheExcludedOnesIsApplied() {
        ReplicationFilter f = filter(List.of(), List.of("shop.tmp_*", "*.audit_log"), Map.of());

        assertThat(f.replicates("shop", "orders")).isTrue();
        assertThat(f.replicates("mysql", "user")).as("mysql is a schema like any other").isTrue();
        assertThat(f.replicates("shop", "tmp_1")).isFalse();
        assertThat(f.replicates("crm", "audit_log")).isFalse();
    }

    @Test
    void aTableMustMatchSomeIncludeAndNoExclude() {
        ReplicationFilter f = filter(List.of("shop.*", "crm.customers", "app_%.orders"), List.of("shop.tmp_*"),
            Map.of());

        assertThat(f.replicates("shop", "orders")).isTrue();
        assertThat(f.replicates("crm", "customers")).isTrue();
        assertThat(f.replicates("app_eu", "orders")).isTrue();
        assertThat(f.replicates("crm", "leads")).isFalse();
        assertThat(f.replicates("shop", "tmp_x")).isFalse();
        assertThat(f.replicates("mysql", "user")).as("not included").isFalse();
    }

    @Test
    void theStateSchemaOfTheSourceIsNeverApplied() {
        ReplicationFilter f = filter(List.of(), List.of(), Map.of());

        assertThat(f.replicates("binlog_applier", "applier_position")).isFalse();
        assertThat(f.replicates("Binlog_Applier", "x")).isFalse();
        assertThat(f.replicatesSchema("binlog_applier")).isFalse();
        assertThat(filter(List.of("*.*"), List.of(), Map.of()).replicates("binlog_applier", "x")).isFalse();
    }

    @Test
    void aSchemaIsAppliedWhenSomeIncludeCanMatchInItAndNoExcludeCoversItWhole() {
        ReplicationFilter f = filter(List.of("shop.*", "crm.customers"), List.of("shop.tmp_*", "crm.*"), Map.of());

        assertThat(f.replicatesSchema("shop")).isTrue();
        assertThat(f.replicatesSchema("crm")).as("excluded whole").isFalse();
        assertThat(f.replicatesSchema("other")).isFalse();
        assertThat(filter(List.of(), List.of("shop.tmp_*"), Map.of()).replicatesSchema("shop")).isTrue();
    }

    @Test
    void renamedSchemasMapToTheirTargetAndOthersKeepTheirName() {
        ReplicationFilter f = filter(List.of(), List.of(), Map.of("shop", "shop_replica"));

        assertThat(f.target("shop")).isEqualTo("shop_replica");
        assertThat(f.target("SHOP")).isEqualTo("shop_replica");
        assertThat(f.target("crm")).isEqualTo("crm");
        assertThat(f.renamed("Shop")).isTrue();
        assertThat(f.renamed("crm")).isFalse();
    }

    @Test
    void aSourceSchemaNamedLikeARenameTargetCannotBeAppliedUnderItsOwnName() {
        ReplicationFilter f = filter(List.of(), List.of(), Map.of("shop", "shop_replica"));

        assertThatThrownBy(() -> f.target("shop_replica")).isInstanceOf(ApplierException.class)
            .satisfies(e -> assertThat(((ApplierException) e).exitCode()).isEqualTo(ExitCode.CONFIG))
            .hasMessageContaining("two source schemas cannot share one target schema");
    }
}
