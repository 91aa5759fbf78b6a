package io.binlogapplier.schedule;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ConflictResolverTest {
    // connections 101..104 belong to workers 0..3
    private static final Map<Long, Integer> WORKERS = Map.of(101L, 0, 102L, 1, 103L, 2, 104L, 3);

    private static List<ConflictResolver.Victim> victims(Map<Long, Long> units, ConflictResolver.Wait... waits) {
        return ConflictResolver.victims(List.of(waits), units, WORKERS);
    }

    @Test
    void aLaterUnitHoldingALockAnEarlierUnitWaitsForGivesWay() {
        List<ConflictResolver.Victim> v = victims(Map.of(101L, 5L, 102L, 7L),
            new ConflictResolver.Wait(101, 102, "`d`.`child`"));

        assertThat(v).containsExactly(new ConflictResolver.Victim(1, 7, 5, "`d`.`child`", false));
    }

    @Test
    void anEarlierUnitHoldingTheLockIsTheNaturalOrderAndNobodyGivesWay() {
        assertThat(victims(Map.of(101L, 5L, 102L, 7L), new ConflictResolver.Wait(102, 101, "t"))).isEmpty();
    }

    @Test
    void waitsOnSessionsThatAreNotWorkersOrIdleWorkersAreIgnored() {
        assertThat(victims(Map.of(101L, 5L, 102L, 0L), new ConflictResolver.Wait(101, 999, "t"),
            new ConflictResolver.Wait(101, 102, "t"), new ConflictResolver.Wait(888, 101, "t"))).isEmpty();
    }

    @Test
    void aVictimThatIsItselfWaitingIsMarkedSoItsStatementCanBeKilled() {
        List<ConflictResolver.Victim> v = victims(Map.of(101L, 5L, 102L, 7L, 103L, 6L),
            new ConflictResolver.Wait(101, 102, "a"), new ConflictResolver.Wait(102, 103, "b"));

        assertThat(v).containsExactly(new ConflictResolver.Victim(1, 7, 5, "a", true));
    }

    @Test
    void aUnitBlockingSeveralEarlierUnitsIsNamedOnceForTheEarliest() {
        List<ConflictResolver.Victim> v = victims(Map.of(101L, 5L, 103L, 6L, 104L, 9L),
            new ConflictResolver.Wait(103, 104, "x"), new ConflictResolver.Wait(101, 104, "y"));

        assertThat(v).containsExactly(new ConflictResolver.Victim(3, 9, 5, "y", false));
    }
}
