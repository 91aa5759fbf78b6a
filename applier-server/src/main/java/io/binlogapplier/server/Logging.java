package io.binlogapplier.server;

import io.binlogapplier.ApplierException;
import io.binlogapplier.ExitCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * One line per event on stdout, for journald: {@code 2026-11-30T14:00:00.000Z INFO [thread] logger - message}.
 * Expected failures are logged as their one-line message, without a stack trace.
 */
final class Logging {
    private Logging() {
    }

    static void configure() {
        setDefault("org.slf4j.simpleLogger.logFile", "System.out");
        setDefault("org.slf4j.simpleLogger.showDateTime", "true");
        setDefault("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
        setDefault("org.slf4j.simpleLogger.showShortLogName", "true");
        setDefault("org.slf4j.simpleLogger.showThreadName", "true");
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", "info");
        setDefault("org.slf4j.simpleLogger.log.com.zaxxer.hikari", "warn");
        // "Connection … marked as broken" comes with the driver's whole stack trace for every lost
        // target connection; the applier reports the loss itself, in one line.
        setDefault("org.slf4j.simpleLogger.log.com.zaxxer.hikari.pool.ProxyConnection", "error");
        setDefault("org.slf4j.simpleLogger.log.com.github.shyiko", "warn");
        java.util.logging.LogManager.getLogManager().reset();
        SLF4JBridgeHandler.install();
        java.util.logging.Logger.getLogger("com.github.shyiko").setLevel(java.util.logging.Level.WARNING);
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    static void failure(ApplierException e) {
        Logger log = LoggerFactory.getLogger("binlog-applier");
        String line = e.getMessage() + " [exit " + e.exitCode().code() + "]";
        if (e.exitCode() == ExitCode.INTERNAL) {
            log.error(line, e);
        } else {
            log.error(line);
        }
    }
}
