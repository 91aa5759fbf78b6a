package io.binlogapplier.apply;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ServerVersionTest {
    @Test
    void versionStringsOfBothKindsAreReadAsKindMajorMinor() {
        assertThat(ServerVersion.parseOrNull("10.11.19-MariaDB-0+deb12u1-log").toString()).isEqualTo("MariaDB 10.11");
        assertThat(ServerVersion.parseOrNull("5.5.5-10.6.21-MariaDB").toString()).isEqualTo("MariaDB 10.6");
        assertThat(ServerVersion.parseOrNull("8.0.36").toString()).isEqualTo("MySQL 8.0");
        assertThat(ServerVersion.parseOrNull("8.4.3-commercial").toString()).isEqualTo("MySQL 8.4");
        assertThat(ServerVersion.parseOrNull("11.4.5-MariaDB").text()).isEqualTo("11.4.5-MariaDB");
    }

    @Test
    void whatIsNotAVersionIsNull() {
        assertThat(ServerVersion.parseOrNull(null)).isNull();
        assertThat(ServerVersion.parseOrNull("")).isNull();
        assertThat(ServerVersion.parseOrNull("MariaDB")).isNull();
    }

    @Test
    void olderComparesMajorThenMinorAndIgnoresThePatchRelease() {
        ServerVersion v1011 = ServerVersion.parseOrNull("10.11.19-MariaDB");
        assertThat(ServerVersion.parseOrNull("10.6.1-MariaDB").olderThan(v1011)).isTrue();
        assertThat(ServerVersion.parseOrNull("10.11.2-MariaDB").olderThan(v1011)).isFalse();
        assertThat(ServerVersion.parseOrNull("11.0.0-MariaDB").olderThan(v1011)).isFalse();
        assertThat(v1011.olderThan(ServerVersion.parseOrNull("11.4.5-MariaDB"))).isTrue();
        assertThat(ServerVersion.parseOrNull("8.4.0").atLeast(8, 0)).isTrue();
        assertThat(ServerVersion.parseOrNull("5.7.44").atLeast(8, 0)).isFalse();
    }
}
