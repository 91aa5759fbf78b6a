package io.binlogapplier.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * Issue 17, #7: a compressed transaction larger than the heap travels in parts. The payload (3,000
 * rows events of 70 KiB: about 210 MB uncompressed, well under 1 MB compressed) is fed to a JVM with
 * a 64 MB heap; decompressing it whole, as before, throws OutOfMemoryError there.
 */
class CompressedTransactionInPartsTest {

    @Test
    void aCompressedTransactionFourTimesTheHeapTravelsInParts() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
            CompressedTransactionInParts.class.getName(), "3000", Long.toString(1 << 20)))
            .redirectErrorStream(true).start();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!done) {
            p.destroyForcibly();
        }
        assertThat(done).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        Matcher m = Pattern.compile("parts=(\\d+) rows=(\\d+) uncompressed=(\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        assertThat(Long.parseLong(m.group(3))).as("uncompressed bytes").isGreaterThan(3L * 64 * 1024 * 1024);
        assertThat(Long.parseLong(m.group(1))).as("parts").isGreaterThan(100);
        assertThat(Long.parseLong(m.group(2))).as("every row arrived").isEqualTo(3000);
    }
}
