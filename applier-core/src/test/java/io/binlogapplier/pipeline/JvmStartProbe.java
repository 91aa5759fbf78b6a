package io.binlogapplier.pipeline;

/** Run in a child JVM by {@link FirstCommitClockTest}: prints when that JVM started, as the first-commit line counts it. */
public final class JvmStartProbe {
    private JvmStartProbe() {
    }

    public static void main(String[] args) {
        System.out.println(Pipeline.jvmStartMillis());
    }
}
