package io.binlogapplier.readahead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.binlogapplier.readahead.ReadWindow.Verdict;

import org.junit.jupiter.api.Test;

class ReadWindowTest {
    @Test
    void readsAheadOfTheOldestTransactionAWorkerAppliesUpToTheWindow() {
        ReadWindow w = new ReadWindow(10);
        // a worker applies transaction 5
        assertThat(w.admit(5, 4, 5)).isEqualTo(Verdict.READ);
        assertThat(w.admit(6, 4, 5)).isEqualTo(Verdict.READ);
        assertThat(w.admit(7, 4, 5)).isEqualTo(Verdict.WAIT);
        assertThat(w.ahead()).isEqualTo(8);
        // the worker moves on to 6: transaction 5 leaves the window, 7 fits
        assertThat(w.admit(7, 4, 6)).isEqualTo(Verdict.READ);
        assertThat(w.ahead()).isEqualTo(8);
    }

    @Test
    void aTransactionAWorkerHasPassedIsLate() {
        ReadWindow w = new ReadWindow(10);
        assertThat(w.admit(3, 1, 4)).isEqualTo(Verdict.LATE);
        assertThat(w.ahead()).isZero();
        // the one being applied is not late: a worker may be early in it
        assertThat(w.admit(4, 1, 4)).isEqualTo(Verdict.READ);
    }

    @Test
    void aTransactionLargerThanTheWindowIsReadWhenNothingElseIsAhead() {
        ReadWindow w = new ReadWindow(10);
        assertThat(w.admit(1, 50, 1)).isEqualTo(Verdict.READ);
        assertThat(w.admit(2, 1, 1)).isEqualTo(Verdict.WAIT);
        assertThat(w.admit(2, 1, 2)).isEqualTo(Verdict.READ);
        assertThatThrownBy(() -> new ReadWindow(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
