package io.binlogapplier.server.takeover;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import io.binlogapplier.config.ConfigLoader;
import io.binlogapplier.config.SourceConfig;
import io.binlogapplier.position.BinlogCoordinates;
import io.binlogapplier.position.SourcePosition;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading a native replica's status rows (MariaDB, MySQL 5.7/8.0 and 8.0.22+ names) and the handback statements. */
class ReplicaStatusTest {

    private static Map<String, String> mariadbRow() {
        Map<String, String> r = new HashMap<>();
        r.put("Master_Host", "10.0.0.5");
        r.put("Master_Port", "3306");
        r.put("Slave_IO_Running", "Yes");
        r.put("Slave_SQL_Running", "No");
        r.put("Relay_Master_Log_File", "mysql-bin.000042");
        r.put("Exec_Master_Log_Pos", "1337");
        r.put("Master_Server_Id", "1");
        r.put("Using_Gtid", "Slave_Pos");
        r.put("Gtid_Slave_Pos", "0-1-100,1-2-5");
        r.put("Last_SQL_Errno", "1062");
        r.put("Last_SQL_Error", "Duplicate entry");
        return r;
    }

    @Test
    void mariadbShowSlaveStatusGivesTheExecutedCoordinatesAndGtidMode() {
        ReplicaStatus r = ReplicaStatus.parse(mariadbRow());

        assertThat(r.sourceHost()).isEqualTo("10.0.0.5");
        assertThat(r.sourcePort()).isEqualTo(3306);
        assertThat(r.ioRunning()).isTrue();
        assertThat(r.sqlRunning()).isFalse();
        assertThat(r.executed()).isEqualTo(new BinlogCoordinates("mysql-bin.000042", 1337));
        assertThat(r.byGtid()).isTrue();
        assertThat(r.gtids()).isEqualTo("0-1-100,1-2-5");
        assertThat(r.sourceServerId()).isEqualTo(1);
        assertThat(r.lastSqlErrno()).isEqualTo(1062);
    }

    @Test
    void theReplicasOwnFiltersAreNamed() {
        Map<String, String> row = mariadbRow();
        row.put("Replicate_Do_DB", "");
        row.put("Replicate_Wild_Ignore_Table", "other.%,tmp.%");
        row.put("Replicate_Ignore_DB", "audit");

        assertThat(ReplicaStatus.parse(row).filters())
            .isEqualTo("Replicate_Ignore_DB=audit, Replicate_Wild_Ignore_Table=other.%,tmp.%");
        assertThat(ReplicaStatus.parse(mariadbRow()).filters()).isEmpty();
    }

    @Test
    void mariadbUsingGtidNoIsByFile() {
        Map<String, String> row = mariadbRow();
        row.put("Using_Gtid", "No");

        assertThat(ReplicaStatus.parse(row).byGtid()).isFalse();
    }

    @Test
    void mysql8ShowReplicaStatusUsesSourceAndReplicaNames() {
        Map<String, String> r = new HashMap<>();
        r.put("Source_Host", "db1");
        r.put("Source_Port", "3307");
        r.put("Replica_IO_Running", "Connecting");
        r.put("Replica_SQL_Running", "Yes");
        r.put("Relay_Source_Log_File", "binlog.000007");
        r.put("Exec_Source_Log_Pos", "157");
        r.put("Source_Server_Id", "11");
        r.put("Source_UUID", "3E11FA47-71CA-11E1-9E33-C80AA9429562");
        r.put("Auto_Position", "1");
        r.put("Executed_Gtid_Set", "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77,\n9a1b0000-0000-0000-0000-000000000001:1-3");
        r.put("Last_SQL_Errno", "0");

        ReplicaStatus s = ReplicaStatus.parse(r);

        assertThat(s.sourceHost()).isEqualTo("db1");
        assertThat(s.sourcePort()).isEqualTo(3307);
        assertThat(s.ioRunning()).as("Connecting counts as running").isTrue();
        assertThat(s.sqlRunning()).isTrue();
        assertThat(s.executed()).isEqualTo(new BinlogCoordinates("binlog.000007", 157));
        assertThat(s.byGtid()).isTrue();
        assertThat(s.gtidMode()).isEqualTo("Auto_Position=1");
        assertThat(s.gtids()).isEqualTo("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77,"
            + "9a1b0000-0000-0000-0000-000000000001:1-3");
        assertThat(s.sourceUuid()).isEqualTo("3E11FA47-71CA-11E1-9E33-C80AA9429562");
    }

    @Test
    void mysql57ShowSlaveStatusWithoutAutoPositionIsByFile() {
        Map<String, String> r = new HashMap<>();
        r.put("Master_Host", "db1");
        r.put("Master_Port", "3306");
        r.put("Slave_IO_Running", "No");
        r.put("Slave_SQL_Running", "No");
        r.put("Relay_Master_Log_File", "mysql-bin.000003");
        r.put("Exec_Master_Log_Pos", "4711");
        r.put("Master_UUID", "");
        r.put("Auto_Position", "0");

        ReplicaStatus s = ReplicaStatus.parse(r);

        assertThat(s.byGtid()).isFalse();
        assertThat(s.executed()).isEqualTo(new BinlogCoordinates("mysql-bin.000003", 4711));
        assertThat(s.sqlRunning()).isFalse();
    }

    private static SourceConfig source(String host, int port) {
        return new ConfigLoader().parse("name: t\nsource:\n  host: " + host + "\n  port: " + port + "\n  user: u\n"
            + "  password: p\n  server_id: 4242\ntarget:\n  host: 127.0.0.1\n  port: 3307\n  user: u\n  password: p\n",
            "test", "t").source();
    }

    @Test
    void theSourceIsRecognisedByIdWhenTheReplicaKnowsItElseByHostAndPort() {
        ReplicaStatus byId = ReplicaStatus.parse(mariadbRow());
        Map<String, String> neverConnected = mariadbRow();
        neverConnected.put("Master_Server_Id", "0");
        ReplicaStatus byAddress = ReplicaStatus.parse(neverConnected);
        var resolve = (java.util.function.Function<String, List<String>>) h -> h.equals("src.example")
            ? List.of("10.0.0.5") : List.of(h);

        assertThat(NativeReplica.notOurSource(byId, source("src.example", 3306), 1, "", resolve)).isNull();
        assertThat(NativeReplica.notOurSource(byId, source("src.example", 3306), 7, "", resolve))
            .contains("server_id 1").contains("has server_id 7");
        assertThat(NativeReplica.notOurSource(byAddress, source("src.example", 3306), 7, "", resolve)).isNull();
        assertThat(NativeReplica.notOurSource(byAddress, source("src.example", 3307), 7, "", resolve))
            .contains("10.0.0.5:3306");
        assertThat(NativeReplica.notOurSource(byAddress, source("other.example", 3306), 7, "", resolve))
            .contains("not the configured source");
    }

    @Test
    void mysqlSourcesAreRecognisedByUuid() {
        Map<String, String> r = new HashMap<>();
        r.put("Source_Host", "db1");
        r.put("Source_Port", "3306");
        r.put("Source_Server_Id", "1");
        r.put("Source_UUID", "3e11fa47-71ca-11e1-9e33-c80aa9429562");
        ReplicaStatus s = ReplicaStatus.parse(r);

        assertThat(NativeReplica.notOurSource(s, source("db1", 3306), 1, "3E11FA47-71CA-11E1-9E33-C80AA9429562",
            List::of)).isNull();
        assertThat(NativeReplica.notOurSource(s, source("db1", 3306), 1, "00000000-71ca-11e1-9e33-c80aa9429562",
            List::of)).contains("UUID");
    }

    @Test
    void handbackStatementsPerServerKindAndMode() {
        SourcePosition saved = new SourcePosition(new BinlogCoordinates("mysql-bin.000042", 1337), "0-1-100",
            SourcePosition.ResumeBy.FILE);

        assertThat(HandbackPlan.statements(true, true, false, saved)).containsExactly("STOP SLAVE",
            "SET GLOBAL gtid_slave_pos = '0-1-100'", "CHANGE MASTER TO MASTER_USE_GTID = slave_pos");
        assertThat(HandbackPlan.statements(true, false, false, saved)).containsExactly("STOP SLAVE",
            "SET GLOBAL gtid_slave_pos = '0-1-100'",
            "CHANGE MASTER TO MASTER_LOG_FILE = 'mysql-bin.000042', MASTER_LOG_POS = 1337, MASTER_USE_GTID = no");
        assertThat(HandbackPlan.statements(false, false, true, saved)).containsExactly("STOP REPLICA",
            "CHANGE REPLICATION SOURCE TO SOURCE_AUTO_POSITION = 0, SOURCE_LOG_FILE = 'mysql-bin.000042',"
                + " SOURCE_LOG_POS = 1337");
        assertThat(HandbackPlan.statements(false, false, false, saved)).containsExactly("STOP SLAVE",
            "CHANGE MASTER TO MASTER_AUTO_POSITION = 0, MASTER_LOG_FILE = 'mysql-bin.000042', MASTER_LOG_POS = 1337");
    }

    /** A MariaDB replica of a MySQL source: no gtid_slave_pos (it takes MariaDB GTIDs only), and no --by gtid. */
    @Test
    void aMariadbReplicaOfAMysqlSourceIsHandedBackByFileWithoutGtids() {
        SourcePosition mysql = new SourcePosition(new BinlogCoordinates("binlog.000042", 1337),
            "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77", SourcePosition.ResumeBy.FILE);

        List<String> byFile = HandbackPlan.statements(true, false, false, mysql);
        assertThat(byFile).containsExactly("STOP SLAVE",
            "CHANGE MASTER TO MASTER_LOG_FILE = 'binlog.000042', MASTER_LOG_POS = 1337, MASTER_USE_GTID = no");
        assertThat(HandbackPlan.setsGtidSlavePos(byFile)).isFalse();
        assertThatThrownBy(() -> HandbackPlan.statements(true, true, false, mysql)).hasMessageContaining("--by file");
        assertThat(HandbackPlan.setsGtidSlavePos(HandbackPlan.statements(true, true, false, new SourcePosition(
            new BinlogCoordinates("mysql-bin.000001", 4), "0-1-100", SourcePosition.ResumeBy.GTID)))).isTrue();
    }

    @Test
    void handbackByFileNeedsAFileAndByGtidNeedsGtids() {
        SourcePosition gtidOnly = new SourcePosition(new BinlogCoordinates("", 4), "0-1-100",
            SourcePosition.ResumeBy.GTID);
        SourcePosition fileOnly = new SourcePosition(new BinlogCoordinates("mysql-bin.000001", 4), "",
            SourcePosition.ResumeBy.FILE);

        assertThatThrownBy(() -> HandbackPlan.statements(true, false, false, gtidOnly))
            .isInstanceOf(ApplierException.class).hasMessageContaining("--by gtid")
            .satisfies(e -> assertThat(((ApplierException) e).exitCode()).isEqualTo(ExitCode.NO_SAVED_POSITION));
        assertThatThrownBy(() -> HandbackPlan.statements(true, true, false, fileOnly))
            .hasMessageContaining("--by file");
    }
}
