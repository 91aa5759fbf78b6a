package io.binlogapplier.apply;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** When a keyless net effect deletes its removed values one DELETE each (RowApplier.fewPerLeadingValue). */
class KeylessDeletesTest {
    @Test
    void distinctLeadingValuesGoOneByOne() {
        assertThat(RowApplier.fewPerLeadingValue(List.of(1, 2, 3, 4, 5))).isTrue();
        assertThat(RowApplier.fewPerLeadingValue(List.of(7))).isTrue();
    }

    @Test
    void upToFourValuesShareALeadingValue() {
        assertThat(RowApplier.fewPerLeadingValue(List.of(1, 1, 1, 1))).isTrue();
        assertThat(RowApplier.fewPerLeadingValue(List.of(1, 1, 1, 1, 1))).isFalse();
        assertThat(RowApplier.fewPerLeadingValue(List.of(1, 1, 1, 1, 1, 2, 2, 2))).isTrue();
    }

    @Test
    void aStatusColumnWithThreeValuesIsCountedAsLists() {
        List<Object> leading = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            leading.add(i % 3);
        }
        assertThat(RowApplier.fewPerLeadingValue(leading)).isFalse();
    }

    @Test
    void textComparesByContentAndNullIsAValueOfItsOwn() {
        List<Object> same = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            same.add("x".getBytes(StandardCharsets.UTF_8)); // five arrays, one value
        }
        assertThat(RowApplier.fewPerLeadingValue(same)).isFalse();
        List<Object> distinct = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            distinct.add(("x" + i).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(RowApplier.fewPerLeadingValue(distinct)).isTrue();
        List<Object> nulls = new ArrayList<>(Collections.nCopies(5, null));
        assertThat(RowApplier.fewPerLeadingValue(nulls)).isFalse();
        nulls.addAll(Arrays.asList(1, 2));
        assertThat(RowApplier.fewPerLeadingValue(nulls)).isTrue();
    }
}
