package io.binlogapplier.harness;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

/**
 * JUnit 5 extension: a throwaway source/target {@link ServerPair} for one test class.
 * <pre>
 * {@literal @}RegisterExtension
 * static final MariaDbServers SERVERS = MariaDbServers.pair();
 * </pre>
 */
public final class MariaDbServers implements BeforeAllCallback, AfterAllCallback {
    private final List<String> sourceOptions;
    private final List<String> targetOptions;
    private ServerPair pair;

    private MariaDbServers(List<String> sourceOptions, List<String> targetOptions) {
        this.sourceOptions = sourceOptions;
        this.targetOptions = targetOptions;
    }

    public static MariaDbServers pair() {
        return new MariaDbServers(List.of(), List.of());
    }

    public static MariaDbServers pair(List<String> sourceOptions, List<String> targetOptions) {
        return new MariaDbServers(sourceOptions, targetOptions);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        pair = ServerPair.start(sourceOptions, targetOptions);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (pair != null) {
            pair.close();
            pair = null;
        }
    }

    public MariaDb source() {
        return pair.source;
    }

    public MariaDb target() {
        return pair.target;
    }

    public ServerPair servers() {
        return pair;
    }
}
