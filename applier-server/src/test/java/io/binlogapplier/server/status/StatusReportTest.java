package io.binlogapplier.server.status;

import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import io.binlogapplier.position.StateStore;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StatusReportTest {
    private static final Instant NOW = Instant.parse("2026-05-01T10:00:10Z");
    private static final long COMMIT_US = Instant.parse("2026-05-01T10:00:00Z").toEpochMilli() * 1000 + 250_000;
    private static final List<StatusReport.BinlogFile> LOGS = List.of(new StatusReport.BinlogFile("mysql-bin.000001", 5000),
        new StatusReport.BinlogFile("mysql-bin.000002", 7000), new StatusReport.BinlogFile("mysql-bin.000003", 900));

    private static StateStore.Saved saved(String file, long offset, String gtids) {
        return new StateStore.Saved(new SourcePosition(new BinlogCoordinates(file, offset), gtids,
            SourcePosition.ResumeBy.FILE), null, 42, COMMIT_US);
    }

    private static StatusReport report(StateStore.Saved saved, String endFile, long endOffset, String sourceGtids) {
        return new StatusReport("orders", "binlog_applier.applier_position", "127.0.0.1:3308", saved, null,
            new StatusReport.Source("127.0.0.1:3307", new BinlogCoordinates(endFile, endOffset), sourceGtids, LOGS), NOW);
    }

    @Test
    void behindOnTheSameFileCountsTheBytesAndLagsFromTheLastAppliedCommit() {
        StatusReport r = report(saved("mysql-bin.000003", 400, "0-1-10"), "mysql-bin.000003", 900, "0-1-12");

        assertThat(r.caughtUp()).isFalse();
        assertThat(r.bytesBehind()).isEqualTo(500);
        assertThat(r.lagSeconds()).isEqualTo(9.75);
        assertThat(r.lastCommit()).isEqualTo(Instant.parse("2026-05-01T10:00:00.250Z"));
    }

    @Test
    void behindAcrossFilesAddsTheRestOfTheSavedFileTheFilesBetweenAndTheEndOffset() {
        StatusReport r = report(saved("mysql-bin.000001", 1000, ""), "mysql-bin.000003", 300, "");

        assertThat(r.bytesBehind()).isEqualTo((5000 - 1000) + 7000 + 300);
        assertThat(r.text()).contains("11300 bytes");
    }

    @Test
    void aSourceThatOnlyRotatedSinceIsCaughtUpByGtidWithZeroLag() {
        StatusReport r = report(saved("mysql-bin.000002", 6500, "0-1-12"), "mysql-bin.000003", 380, "0-1-12");

        assertThat(r.caughtUp()).isTrue();
        assertThat(r.bytesBehind()).isZero();
        assertThat(r.lagSeconds()).isZero();
        assertThat(r.text()).contains("caught up");
    }

    @Test
    void withoutGtidsTheFilePositionDecides() {
        assertThat(report(saved("mysql-bin.000003", 900, ""), "mysql-bin.000003", 900, "").caughtUp()).isTrue();
        assertThat(report(saved("mysql-bin.000003", 899, ""), "mysql-bin.000003", 900, "").caughtUp()).isFalse();
    }

    @Test
    void aSavedFileTheSourcePurgedLeavesTheDistanceUnknown() {
        StatusReport r = report(saved("mysql-bin.000000", 4, "0-1-1"), "mysql-bin.000003", 900, "0-1-12");

        assertThat(r.bytesBehind()).isNull();
        assertThat(r.text()).contains("unknown (the saved binlog file is no longer on the source)");
    }

    @Test
    void neverStartedSaysSoAndTheJsonHasNoPosition() {
        StatusReport r = report(null, "mysql-bin.000003", 900, "0-1-12");

        assertThat(r.started()).isFalse();
        assertThat(r.text()).contains("never started");
        assertThat(r.json()).contains("\"started\":false").doesNotContain("\"position\"")
            .contains("\"source_end\":{\"file\":\"mysql-bin.000003\",\"offset\":900,\"gtid_set\":\"0-1-12\","
                + "\"server_id\":null}")
            .contains("\"lag_seconds\":null");
    }

    @Test
    void jsonCarriesEveryFigure() {
        StatusReport r = report(saved("mysql-bin.000003", 400, "0-1-10"), "mysql-bin.000003", 900, "0-1-12");

        assertThat(r.json()).startsWith("{\"name\":\"orders\",\"started\":true")
            .contains("\"position\":{\"file\":\"mysql-bin.000003\",\"offset\":400,\"gtid_set\":\"0-1-10\","
                + "\"resume_by\":\"file\",\"server_id\":null}")
            .contains("\"pending\":null", "\"applied_transactions\":42", "\"caught_up\":false", "\"bytes_behind\":500",
                "\"lag_seconds\":9.75", "\"last_commit\":\"2026-05-01T10:00:00.250Z\"");
        assertThat(StatusReport.quote("a\"b\\c\n")).isEqualTo("\"a\\\"b\\\\c\\n\"");
    }

    private static StatusReport withServerIds(SourcePosition.ResumeBy resumeBy, Long saved, Long now) {
        StateStore.Saved row = new StateStore.Saved(new SourcePosition(new BinlogCoordinates("mysql-bin.000001", 856),
            "0-1-3", resumeBy), null, 3, COMMIT_US);
        return new StatusReport("orders", "binlog_applier.applier_position", "127.0.0.1:3308", row, null,
            new StatusReport.Source("127.0.0.1:3307", new BinlogCoordinates("mysql-bin.000001", 3000), "0-7-42", LOGS,
                "", now), NOW, null, null, null, saved);
    }

    @Test
    void aFilePositionOfAnotherServerThanTheSourceIsShownAsTheStopTheNextRunMakes() {
        StatusReport r = withServerIds(SourcePosition.ResumeBy.FILE, 1L, 7L);

        assertThat(r.sourceChanged()).isTrue();
        assertThat(r.text()).contains("(resume by file), in server_id 1's binlog")
            .contains("(127.0.0.1:3307, server_id 7)")
            .contains("source changed  the next run stops with exit 19 and applies nothing: source 127.0.0.1:3307 is"
                + " server_id 7, but the saved position mysql-bin.000001:856 is in server_id 1's binlog");
        assertThat(r.json()).contains("\"resume_by\":\"file\",\"server_id\":1}")
            .contains("\"gtid_set\":\"0-7-42\",\"server_id\":7}", "\"source_changed\":true");
    }

    @Test
    void theSameServerAnUnknownOneOrAGtidResumeIsNoChange() {
        assertThat(withServerIds(SourcePosition.ResumeBy.FILE, 1L, 1L).sourceChanged()).isFalse();
        assertThat(withServerIds(SourcePosition.ResumeBy.FILE, null, 7L).sourceChanged()).isFalse();
        assertThat(withServerIds(SourcePosition.ResumeBy.FILE, 1L, null).sourceChanged()).isFalse();
        // a GTID resume is not bound to one server's files: the source refuses GTIDs it does not hold
        StatusReport gtid = withServerIds(SourcePosition.ResumeBy.GTID, 1L, 7L);
        assertThat(gtid.sourceChanged()).isFalse();
        assertThat(gtid.text()).doesNotContain("source changed");
        assertThat(gtid.json()).contains("\"source_changed\":false");
    }
}
