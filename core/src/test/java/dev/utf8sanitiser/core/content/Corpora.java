package dev.utf8sanitiser.core.content;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The real-text corpora of the repository's {@code testdata/} (set by Maven as {@code testdata.dir}). */
final class Corpora {
    private Corpora() {}

    /** Every {@code *.utf8.txt} file of {@code corpora/}, sorted. */
    static List<Path> utf8Files() throws IOException {
        String dir = System.getProperty("testdata.dir");
        if (dir == null) {
            throw new IllegalStateException("system property testdata.dir is not set (run through Maven)");
        }
        try (Stream<Path> files = Files.walk(Path.of(dir, "corpora"))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".utf8.txt"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }
}
