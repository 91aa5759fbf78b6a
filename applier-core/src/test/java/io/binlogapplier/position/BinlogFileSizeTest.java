package io.binlogapplier.position;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BinlogFileSizeTest {
    private static final List<BinlogFileSize> LOGS = List.of(new BinlogFileSize("mysql-bin.000007", 1000),
        new BinlogFileSize("mysql-bin.000008", 5000), new BinlogFileSize("mysql-bin.000009", 300));

    private static BinlogCoordinates at(String file, long offset) {
        return new BinlogCoordinates(file, offset);
    }

    @Test
    void inOneFileItIsTheDifferenceOfTheOffsets() {
        assertThat(BinlogFileSize.bytesBetween(at("mysql-bin.000009", 100), at("mysql-bin.000009", 300), List.of()))
            .isEqualTo(200);
    }

    @Test
    void acrossFilesItIsTheRestOfTheFirstEveryFileBetweenAndTheEndsOffset() {
        assertThat(BinlogFileSize.bytesBetween(at("mysql-bin.000007", 400), at("mysql-bin.000009", 250), LOGS))
            .isEqualTo(600 + 5000 + 250);
    }

    @Test
    void atOrPastTheEndIsZeroAndAFileTheListLacksIsUnknown() {
        assertThat(BinlogFileSize.bytesBetween(at("mysql-bin.000009", 300), at("mysql-bin.000009", 300), LOGS)).isZero();
        assertThat(BinlogFileSize.bytesBetween(at("mysql-bin.000006", 4), at("mysql-bin.000009", 300), LOGS)).isEqualTo(-1);
        assertThat(BinlogFileSize.bytesBetween(at("mysql-bin.000007", 4), at("mysql-bin.000009", 300), List.of()))
            .isEqualTo(-1);
        assertThat(BinlogFileSize.bytesBetween(null, at("mysql-bin.000009", 300), LOGS)).isEqualTo(-1);
    }
}
