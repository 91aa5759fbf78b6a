package io.binlogapplier.binlog;

import com.github.shyiko.mysql.binlog.network.AuthenticationException;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** The messages operators (and the integration tests) read; the classification itself is ErrorClassifierTest's. */
class SourceErrorsTest {
    private static ApplierException classify(Throwable t) {
        return SourceErrors.classify(t, "db1:3306", "repl", "mysql-bin.000001:4");
    }

    private static void assertFailure(Throwable t, ExitCode exit, String message) {
        ApplierException e = classify(t);
        assertThat(e.exitCode()).isEqualTo(exit);
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.getCause()).isSameAs(t);
        assertThat(SourceErrors.isTransient(e)).isEqualTo(exit == ExitCode.SOURCE_UNREACHABLE);
    }

    @Test
    void unreachable() {
        assertFailure(new RuntimeException(new ConnectException("Connection refused\nmore")),
            ExitCode.SOURCE_UNREACHABLE, "cannot reach source db1:3306 (Connection refused): check"
                + " source.host/source.port and that the server is running");
        assertFailure(new SQLException("Communications link failure", "08S01", 0), ExitCode.SOURCE_UNREACHABLE,
            "cannot reach source db1:3306 (Communications link failure): check source.host/source.port and that the"
                + " server is running");
        assertFailure(new UnknownHostException("nohost"), ExitCode.SOURCE_UNREACHABLE,
            "cannot resolve source host 'nohost': check source.host");
        assertFailure(new IOException("Stream closed"), ExitCode.SOURCE_UNREACHABLE,
            "lost the source db1:3306 (Stream closed)");
        assertFailure(new ServerException("Unknown system variable 'x'", 1193, "HY000"), ExitCode.SOURCE_UNREACHABLE,
            "source db1:3306 reported error 1193 (Unknown system variable 'x')");
        assertFailure(new SQLException("Query execution was interrupted", "70100", 1317), ExitCode.SOURCE_UNREACHABLE,
            "source db1:3306 reported error 1317 (Query execution was interrupted)");
    }

    @Test
    void fatal() {
        assertFailure(new AuthenticationException("Access denied for user 'repl'"), ExitCode.SOURCE_ACCESS_DENIED,
            "source db1:3306 refused user 'repl' (Access denied for user 'repl'): check source.user and"
                + " source.password");
        assertFailure(new SQLException("Access denied for user 'repl'", "28000", 1045), ExitCode.SOURCE_ACCESS_DENIED,
            "source db1:3306 refused user 'repl' (Access denied for user 'repl'): check source.user and"
                + " source.password");
        assertFailure(new ServerException("Could not find first log file name in binary log index file", 1236,
            "HY000"), ExitCode.SOURCE_POSITION_UNAVAILABLE, "source db1:3306 cannot send from mysql-bin.000001:4"
                + " (Could not find first log file name in binary log index file): the binlog there was purged or"
                + " never existed; re-seed the target from a fresh copy of the source and set source.start to that"
                + " copy's position (and clear the state row)");
        assertFailure(new ServerException("A slave with the same server_uuid/server_id as this slave has connected to"
            + " the master", 1236, "HY000"), ExitCode.SOURCE_SERVER_ID_IN_USE, "source db1:3306 says another replica"
                + " uses our server_id (A slave with the same server_uuid/server_id as this slave has connected to the"
                + " master): set source.server_id to a value no other replica uses");
        assertFailure(new SQLException("Access denied; you need the REPLICATION CLIENT privilege", "42000", 1227),
            ExitCode.SOURCE_PRIVILEGE, "source user 'repl' lacks a privilege (Access denied; you need the REPLICATION"
                + " CLIENT privilege): GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO the user (MariaDB: also"
                + " BINLOG MONITOR)");
        assertFailure(new BinlogFormatException("bad event"), ExitCode.SOURCE_UNSUPPORTED,
            "could not decode the source's binlog: bad event");
    }

    @Test
    void notTheSourcesDoing() {
        IllegalStateException bug = new IllegalStateException("bug");
        assertThat(classify(bug).exitCode()).isEqualTo(ExitCode.INTERNAL);
        assertThat(classify(bug).getMessage()).isEqualTo("internal error: java.lang.IllegalStateException: bug");
        ApplierException already = new ApplierException(ExitCode.SOURCE_POSITION_UNAVAILABLE, "purged");
        assertThat(classify(already)).isSameAs(already);
        RuntimeException wrapped = new RuntimeException(already);
        assertThat(classify(wrapped).exitCode()).isEqualTo(ExitCode.INTERNAL);
        assertThat(classify(wrapped).getCause()).isSameAs(wrapped);
    }
}
