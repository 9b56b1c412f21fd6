package dev.utf8sanitiser.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The public test files of the repository's {@code testdata/} (testdata/README.md), set by Maven as {@code testdata.dir}. */
final class TestData {
    private TestData() {}

    static Path dir() {
        String dir = System.getProperty("testdata.dir");
        if (dir == null) {
            throw new IllegalStateException("system property testdata.dir is not set (run through Maven)");
        }
        return Path.of(dir);
    }

    static byte[] read(String relative) {
        try {
            return Files.readAllBytes(dir().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
