package io.binlogapplier.apply;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class StatementCacheTest {

    @Test
    void theLeastRecentlyUsedStatementIsClosedWhenOneMoreIsKeptPastTheCapacity() {
        List<String> closed = new ArrayList<>();
        StatementCache<String, String> cache = new StatementCache<>(2, closed::add);
        cache.put("a", "A");
        cache.put("b", "B");
        assertThat(cache.get("a")).isEqualTo("A"); // a is now the most recently used
        cache.put("c", "C");
        assertThat(closed).containsExactly("B");
        assertThat(cache.get("b")).isNull();
        assertThat(cache.get("a")).isEqualTo("A");
        assertThat(cache.get("c")).isEqualTo("C");
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void closingATablesStatementsClosesExactlyThoseAndReplacingOneClosesTheOldOne() {
        List<String> closed = new ArrayList<>();
        StatementCache<String, String> cache = new StatementCache<>(10, closed::add);
        cache.put("t1:insert", "I1");
        cache.put("t2:insert", "I2");
        cache.put("t1:delete", "D1");
        cache.closeAll(k -> k.startsWith("t1:"));
        assertThat(closed).containsExactlyInAnyOrder("I1", "D1");
        assertThat(cache.size()).isEqualTo(1);
        cache.put("t2:insert", "I2b");
        assertThat(closed).endsWith("I2");
        assertThat(cache.get("t2:insert")).isEqualTo("I2b");
    }

    @Test
    void theWorkersShareHalfOfTheServersDefaultLimitOfOpenStatements() {
        assertThat(RowApplier.maxPreparedStatements(1)).isEqualTo(512);
        assertThat(RowApplier.maxPreparedStatements(16)).isEqualTo(512);
        assertThat(RowApplier.maxPreparedStatements(64)).isEqualTo(128);
        assertThat(RowApplier.maxPreparedStatements(256)).isEqualTo(32);
        assertThat(256L * RowApplier.maxPreparedStatements(256)).isLessThan(16_382);
    }
}
