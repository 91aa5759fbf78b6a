package io.binlogapplier.position;

import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GtidGoalTest {
    private static final String A = "3e11fa47-71ca-11e1-9e33-c80aa9429562";
    private static final String B = "00000000-0000-0000-0000-000000000002";

    private static SourceGtid.Mysql my(String uuid, long n) {
        return new SourceGtid.Mysql(UUID.fromString(uuid), "", n);
    }

    private static SourceGtid.Mysql tagged(String uuid, String tag, long n) {
        return new SourceGtid.Mysql(UUID.fromString(uuid), tag, n);
    }

    private static SourceGtid.Mariadb maria(long domain, long server, long seq) {
        return new SourceGtid.Mariadb(domain, server, seq);
    }

    @Test
    void mysqlSetIsReachedWhenTheAppliedSetHoldsTheLastGtidOfEveryUuid() {
        GtidGoal goal = GtidGoal.parse(A.toUpperCase() + ":1-100," + B + ":1-7");

        assertThat(goal.mariadb()).isFalse();
        assertThat(goal.reachedBy("")).isFalse();
        assertThat(goal.reachedBy(A + ":1-100")).as("uuid B missing").isFalse();
        assertThat(goal.reachedBy(A + ":1-99," + B + ":1-7")).as("A:100 missing").isFalse();
        assertThat(goal.reachedBy(A + ":1-100," + B + ":1-7")).isTrue();
        assertThat(goal.reachedBy(A + ":1-150," + B + ":1-9")).as("a superset").isTrue();
        assertThat(goal.reachedBy(A + ":60-150," + B + ":5-9"))
            .as("transactions from before a file start position are not in the applied set").isTrue();
        assertThat(goal.reachedBy(A + ":1-99:101-150," + B + ":1-9")).as("A:100 itself missing").isFalse();
        assertThat(goal.reachedBy("0-1-100")).as("a MariaDB position holds no MySQL GTID").isFalse();
    }

    @Test
    void mysqlProgressSaysReachedAtTheTransactionThatCompletesTheGoal() {
        GtidGoal.Progress p = GtidGoal.parse(A + ":1-3," + B + ":5").from(A + ":1");

        assertThat(p.next(my(A, 2))).isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.next(my("00000000-0000-0000-0000-000000000009", 50))).as("a uuid the goal does not name")
            .isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.next(my(A, 3))).isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.outstanding()).isEqualTo(B + ":5");
        assertThat(p.next(my(B, 4))).isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.next(my(B, 5))).isEqualTo(GtidGoal.Step.REACHED);
        assertThat(p.reached()).isTrue();
    }

    @Test
    void mysqlProgressStopsBeforeAGtidPastTheGoalWhenTheGoalsLastGtidNeverCame() {
        GtidGoal.Progress p = GtidGoal.parse(A + ":1-10").from("");

        assertThat(p.next(my(A, 9))).isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.next(my(A, 12))).isEqualTo(GtidGoal.Step.PAST);
        assertThat(p.reached()).isFalse();
    }

    @Test
    void mysqlTagsAreTheirOwnStreams() {
        GtidGoal goal = GtidGoal.parse(A + ":batch:1-5");

        assertThat(goal.reachedBy(A + ":1-5")).as("untagged A:5 is another GTID").isFalse();
        assertThat(goal.reachedBy(A + ":batch:1-5")).isTrue();
        GtidGoal.Progress p = goal.from("");
        assertThat(p.next(my(A, 5))).isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.next(tagged(A, "batch", 5))).isEqualTo(GtidGoal.Step.REACHED);
    }

    @Test
    void mariadbPositionIsReachedWhenEveryDomainIsAtOrPastItsSequence() {
        GtidGoal goal = GtidGoal.parse("0-1-100, 1-2-5");

        assertThat(goal.mariadb()).isTrue();
        assertThat(goal).hasToString("0-1-100,1-2-5");
        assertThat(goal.reachedBy("0-1-100")).isFalse();
        assertThat(goal.reachedBy("0-1-100,1-2-4")).isFalse();
        assertThat(goal.reachedBy("0-1-100,1-2-5")).isTrue();
        assertThat(goal.reachedBy("0-3-120,1-2-9,2-1-1")).as("server ids do not matter, later sequences do")
            .isTrue();
    }

    @Test
    void mariadbProgressCountsOnlyTheGoalsDomainsAndStopsBeforeASkippedSequence() {
        GtidGoal.Progress p = GtidGoal.parse("0-1-100,1-2-5").from("0-1-97,1-2-5");

        assertThat(p.outstanding()).isEqualTo("domain 0 sequence 100");
        assertThat(p.next(maria(1, 2, 6))).as("domain 1 was done at the start").isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.next(maria(0, 1, 98))).isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.next(maria(0, 1, 99))).isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(p.next(maria(0, 1, 100))).isEqualTo(GtidGoal.Step.REACHED);

        GtidGoal.Progress gap = GtidGoal.parse("0-1-100").from("0-1-97");
        assertThat(gap.next(maria(0, 1, 98))).isEqualTo(GtidGoal.Step.CONTINUE);
        assertThat(gap.next(maria(0, 1, 101))).isEqualTo(GtidGoal.Step.PAST);
    }

    @Test
    void anAppliedPositionOfTheOtherKindCountsAsNothingApplied() {
        assertThat(GtidGoal.parse("0-1-5").reachedBy(A + ":1-5")).isFalse();
        assertThat(GtidGoal.parse("0-1-5").from("").next(my(A, 9))).isEqualTo(GtidGoal.Step.CONTINUE);
    }

    @Test
    void textThatIsNoGtidIsRefusedWithTheFormsThereAre() {
        assertThat(GtidGoal.looksLikeGtids("mysql-bin.000001:4")).isFalse();
        assertThat(GtidGoal.looksLikeGtids(A + ":7")).isTrue();
        assertThatThrownBy(() -> GtidGoal.parse("mysql-bin.000001:4"))
            .hasMessageContaining("0-1-100,1-2-5").hasMessageContaining("uuid:1-100");
        assertThatThrownBy(() -> GtidGoal.parse(A + ":5-2")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GtidGoal.parse("0-1-1,0-1-2")).hasMessageContaining("domain 0 twice");
    }
}
