package io.binlogapplier.server;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** verify's options take the ranges of their configuration keys; a value outside is a usage error (exit 2), before any connection. */
class VerifyCommandTest {
    private static final Path CONFIG = Configs.write("""
        source:
          host: 127.0.0.1
          port: 1
          user: repl
          password: ""
          server_id: 4242
        target:
          host: 127.0.0.1
          port: 1
          user: root
          password: ""
        """);

    @Test
    void chunkRowsOutsideTheConfigKeysRangeIsAUsageError() {
        for (String n : new String[] {"9", "1000001"}) {
            InProcessCli.Output out = InProcessCli.main("verify", "--config", CONFIG.toString(), "--chunk-rows", n);
            assertThat(out.code()).as(out.text()).isEqualTo(2);
            assertThat(out.text()).contains("--chunk-rows must be 10 to 1000000 (as verify.chunk_rows), not " + n);
        }
    }

    @Test
    void negativeRowsPerSecondIsAUsageError() {
        InProcessCli.Output out = InProcessCli.main("verify", "--config", CONFIG.toString(), "--rows-per-second", "-1");
        assertThat(out.code()).as(out.text()).isEqualTo(2);
        assertThat(out.text()).contains("--rows-per-second must be 0 (no limit) or more");
    }
}
