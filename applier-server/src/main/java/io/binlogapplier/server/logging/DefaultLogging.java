package io.binlogapplier.server.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;
import io.binlogapplier.config.LogConfig;

/**
 * logback's first configuration (found through {@code META-INF/services}): the applier's defaults
 * (info, text, stderr) instead of logback's own (debug, stdout), from the very first log line,
 * also in tests that never call {@link Logging#configure()}.
 */
public final class DefaultLogging extends ContextAwareBase implements Configurator {
    @Override
    public ExecutionStatus configure(LoggerContext context) {
        Logging.configure(context, LogConfig.DEFAULT);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
