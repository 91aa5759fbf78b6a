package io.binlogapplier.binlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class HexFixturesTest {

    @Test
    void commentsAndWhitespaceAreIgnoredAndRepeatTokensExpand() {
        byte[] bytes = HexFixtures.parse("# a note\n0a ff   # two bytes\n\n78*3 # three x\n", "inline");

        assertThat(bytes).containsExactly(0x0a, 0xff, 'x', 'x', 'x');
    }

    @Test
    void aMalformedTokenFailsInsteadOfShiftingTheBytes() {
        assertThatThrownBy(() -> HexFixtures.parse("0a f 0b\n", "inline"))
            .hasMessageContaining("line 1").hasMessageContaining("'f'");
    }

    @Test
    void everyFixtureHeaderLengthMatchesItsBytes() throws Exception {
        for (Path file : fixtures()) {
            String name = file.getFileName().toString().replace(".hex", "");
            if (name.contains("_packet_")) {
                continue; // a client protocol packet (a dump request), not an event
            }
            byte[] event = HexFixtures.load(name);
            long length = ByteBuffer.wrap(event, 9, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFFFFFFL;
            assertThat(length).as(name + " event length").isEqualTo(event.length);
        }
    }

    @Test
    void everyFixtureByteLineCarriesAComment() throws Exception {
        for (Path file : fixtures()) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    assertThat(line).as(file.getFileName() + " line " + (i + 1)).matches("[^#]+#\\s*\\S.*");
                }
            }
        }
    }

    private static List<Path> fixtures() throws IOException, URISyntaxException {
        Path dir = Paths.get(HexFixtures.class.getResource("/fixtures/binlog").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.filter(p -> p.toString().endsWith(".hex")).sorted().toList();
            assertThat(all).isNotEmpty();
            return all;
        }
    }
}
