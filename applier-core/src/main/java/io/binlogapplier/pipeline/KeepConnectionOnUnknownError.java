package io.binlogapplier.pipeline;

import com.zaxxer.hikari.SQLExceptionOverride;
import io.binlogapplier.errors.VendorCode;

import java.sql.SQLException;

/**
 * HikariCP closes a connection that reports error 1105 ("Unknown error"), but MariaDB answers a
 * BINLOG statement whose row event does not apply with exactly that, on a healthy connection we
 * still need: the worker rolls back and retries the unit as SQL on it to learn the real cause.
 */
public final class KeepConnectionOnUnknownError implements SQLExceptionOverride {
    @java.lang.Override
    public SQLExceptionOverride.Override adjudicate(SQLException e) {
        return VendorCode.ER_UNKNOWN_ERROR.is(e) ? SQLExceptionOverride.Override.DO_NOT_EVICT
            : SQLExceptionOverride.Override.CONTINUE_EVICT;
    }
}
