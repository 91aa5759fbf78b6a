package io.binlogapplier.server;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docker/Dockerfile builds the install tarball inside the image: every file and directory of the
 * repository that the tarball's assembly (dist.xml) packs must be copied into that build stage, or
 * {@code mvn package} fails there. (No Docker engine runs in the test environment; this reads both.)
 */
class DockerfileTest {
    private static final Pattern OUTSIDE_THE_MODULE = Pattern.compile("\\$\\{project\\.basedir}/\\.\\./([^/<]+)");

    @Test
    void everyRepositoryPathTheTarballPacksIsCopiedIntoTheBuildStage() throws Exception {
        Path root = root();
        String assembly = Files.readString(root.resolve("applier-server/src/main/assembly/dist.xml"));
        String dockerfile = Files.readString(root.resolve("docker/Dockerfile"));
        List<String> copied = new ArrayList<>();
        for (String line : dockerfile.split("\n")) {
            if (line.startsWith("COPY ")) {
                String[] words = line.trim().split("\\s+");
                for (int i = 1; i < words.length - 1; i++) { // the last word is the destination
                    copied.add(words[i].replaceAll("/$", ""));
                }
            }
        }
        Matcher m = OUTSIDE_THE_MODULE.matcher(assembly);
        List<String> packed = new ArrayList<>();
        while (m.find()) {
            packed.add(m.group(1));
        }

        assertThat(packed).as("paths dist.xml takes from the repository root").contains("README.md", "docs");
        for (String p : packed) {
            assertThat(copied).as("docker/Dockerfile COPYs %s, which dist.xml packs", p)
                .anyMatch(c -> c.equals(p) || p.startsWith(c + "/"));
        }
    }

    /** The repository root, found from the module directory (Surefire's working directory) upwards. */
    private static Path root() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("docker/Dockerfile"))) {
                return d;
            }
        }
        throw new AssertionError("docker/Dockerfile not found above " + Path.of("").toAbsolutePath());
    }
}
