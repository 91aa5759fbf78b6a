package io.binlogapplier.server;

import picocli.CommandLine.IVersionProvider;

final class Version implements IVersionProvider {
    static String version() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "development build" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"binlog-applier " + version(), "Java " + System.getProperty("java.version")};
    }
}
