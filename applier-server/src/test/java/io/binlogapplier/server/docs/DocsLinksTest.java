package io.binlogapplier.server.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Every link in README.md and docs/ resolves inside the repository, headings included. */
class DocsLinksTest {
    /**
     * Pages other helpers' branches add; until they are merged the links to them are tolerated. Once a
     * file exists it is checked like any other; remove it from here when it has been merged.
     */
    private static final Set<String> PENDING = Set.of();

    @Test
    void everyLinkInTheReadmeAndTheDocsResolvesInsideTheRepository() {
        DocsLinks links = new DocsLinks(Path.of(".."), PENDING);

        assertThat(links.files()).hasSizeGreaterThanOrEqualTo(7);
        assertThat(links.problems()).isEmpty();
    }

    @Test
    void theCheckerFindsMissingFilesHeadingsUrlsAndPathsOutOfTheRepository(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/a.md"), "# A page\n\n## Exit codes\n");
        Files.writeString(root.resolve("README.md"), """
            # Title
            [fine](docs/a.md) [fine too](docs/a.md#exit-codes) [self](#title) ![img](docs/a.md)
            [gone](docs/b.md) [no heading](docs/a.md#outages) [web](https://example.org/x) <https://example.org>
            [out](../elsewhere.md) [absolute](/etc/passwd) see ../shared/DESIGN.md
            [pending](docs/tls.md)
            `[in code](nowhere.md)`

                [indented code](nowhere.md)

            ```
            [fenced](nowhere.md)
            ```
            """);

        assertThat(new DocsLinks(root, Set.of("docs/tls.md")).problems()).containsExactlyInAnyOrder(
            "README.md: mentions ../shared/, which is outside the repository",
            "README.md: docs/b.md: no such file",
            "README.md: docs/a.md#outages: no heading #outages in docs/a.md",
            "README.md: https://example.org/x: leaves the repository (a URL)",
            "README.md: https://example.org: leaves the repository (a URL)",
            "README.md: ../elsewhere.md: leaves the repository",
            "README.md: /etc/passwd: an absolute path");
        assertThat(new DocsLinks(root, Set.of()).problems()).contains("README.md: docs/tls.md: no such file");
    }

    @Test
    void anchorsAreGithubsHeadingSlugs() {
        assertThat(DocsLinks.anchors("# Net effect (SQL method)\n## /health\n## Exit codes\n## Exit codes\n"))
            .containsExactly("net-effect-sql-method", "health", "exit-codes", "exit-codes-1");
    }
}
