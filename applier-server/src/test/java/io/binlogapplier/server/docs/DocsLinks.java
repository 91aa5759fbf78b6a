package io.binlogapplier.server.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the broken links of Markdown files: links to a file or directory that does not exist,
 * to a heading (#anchor) a Markdown file does not have, to anything outside the repository
 * (a URL, an absolute path, a path that climbs out of it), and the old pointer into ../shared/.
 * Inline links and images {@code [text](target)}, reference definitions {@code [id]: target} and
 * autolinks {@code <scheme:…>} are checked; code (fenced blocks, indented blocks, `spans`) is not.
 */
public final class DocsLinks {
    private static final Pattern INLINE = Pattern.compile("!?\\[[^\\]]*]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
    private static final Pattern AUTOLINK = Pattern.compile("<([a-zA-Z][a-zA-Z0-9+.-]*:[^>\\s]*)>");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");

    private final Path root;
    /** Files other branches add (docs the lead merges in); tolerated while missing, checked once present. */
    private final Set<String> pending;

    public DocsLinks(Path root, Set<String> pending) {
        this.root = root.toAbsolutePath().normalize();
        this.pending = pending;
    }

    /** README.md and every .md file under docs/. */
    public List<Path> files() {
        List<Path> files = new ArrayList<>(List.of(root.resolve("README.md")));
        try (var walk = Files.walk(root.resolve("docs"))) {
            walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /** The links of {@code file} as written (outside code). */
    public static List<String> links(String markdown) {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        boolean previousBlank = true;
        boolean indentedCode = false;
        for (String line : markdown.split("\n", -1)) {
            String trimmed = line.strip();
            if (trimmed.startsWith("```") || trimmed.startsWith("~~~")) {
                fenced = !fenced;
                previousBlank = false;
                continue;
            }
            if (fenced) {
                continue;
            }
            boolean indented = line.startsWith("    ") || line.startsWith("\t");
            // an indented block starts after a blank line (not inside a list item's continuation)
            indentedCode = indented && (indentedCode || previousBlank && !trimmed.startsWith("- "));
            previousBlank = trimmed.isEmpty();
            if (indentedCode) {
                continue;
            }
            String text = CODE_SPAN.matcher(line).replaceAll("");
            for (Pattern p : List.of(INLINE, AUTOLINK)) {
                Matcher m = p.matcher(text);
                while (m.find()) {
                    out.add(m.group(1));
                }
            }
            Matcher r = REFERENCE.matcher(text);
            if (r.matches()) {
                out.add(r.group(1));
            }
        }
        return out;
    }

    /** The GitHub anchors of a Markdown file's headings. */
    public static Set<String> anchors(String markdown) {
        Set<String> out = new LinkedHashSet<>();
        boolean fenced = false;
        for (String line : markdown.split("\n")) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (!fenced && m.matches()) {
                String base = m.group(2).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                String a = base;
                for (int i = 1; out.contains(a); i++) {
                    a = base + "-" + i;
                }
                out.add(a);
            }
        }
        return out;
    }

    /** Every problem, as "file: link: why". */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        for (Path file : files()) {
            String text = read(file);
            String name = root.relativize(file).toString();
            if (text.contains("shared/DESIGN.md") || text.contains("../shared/")) {
                problems.add(name + ": mentions ../shared/, which is outside the repository");
            }
            for (String link : links(text)) {
                String why = check(file, link);
                if (why != null) {
                    problems.add(name + ": " + link + ": " + why);
                }
            }
        }
        return problems;
    }

    private String check(Path file, String link) {
        if (link.isEmpty()) {
            return "empty link";
        }
        if (SCHEME.matcher(link).find() || link.startsWith("//")) {
            return "leaves the repository (a URL)";
        }
        int hash = link.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? link : link.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : link.substring(hash + 1);
        if (path.startsWith("/")) {
            return "an absolute path";
        }
        Path target = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        if (!target.startsWith(root)) {
            return "leaves the repository";
        }
        String relative = root.relativize(target).toString();
        if (!Files.exists(target)) {
            return pending.contains(relative) ? null : "no such file";
        }
        if (anchor != null && target.toString().endsWith(".md") && !anchors(read(target)).contains(anchor)) {
            return "no heading #" + anchor + " in " + relative;
        }
        return null;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
