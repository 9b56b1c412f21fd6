package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class ErrorSpoolTest {
    @TempDir
    Path dir;

    private static Problem problem(long i) {
        return new Problem(i * 3, 1 + (int) (i % 3), (int) (i % 7));
    }

    private static List<Problem> replay(ErrorSpool spool) throws IOException {
        List<Problem> all = new ArrayList<>();
        spool.forEach(all::add);
        return all;
    }

    /** A temporary directory that is not there is named, with the reason and how to choose another. */
    @Test
    void aMissingTemporaryDirectoryIsSaidInWords() throws IOException {
        Path missing = dir.resolve("gone");
        try (ErrorSpool spool = new ErrorSpool(Long.MAX_VALUE, missing)) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
                for (long i = 0; i <= ErrorSpool.IN_MEMORY; i++) {
                    spool.add(problem(i));
                }
            });

            String line = Main.oneLine(e);
            assertThat(line)
                    .startsWith("cannot keep the errors in a temporary file in " + missing + " (java.io.tmpdir;")
                    .endsWith(": no such file")
                    .contains("-Djava.io.tmpdir=DIR");
        }
    }

    @Test
    void keepsEveryProblemUpToTheLimitInOrderAndCountsTheRest() throws IOException {
        int limit = ErrorSpool.IN_MEMORY + 10_007; // past memory, into the file
        try (ErrorSpool spool = new ErrorSpool(limit, dir)) {
            for (long i = 0; i < limit + 5_000; i++) {
                spool.add(problem(i));
            }

            assertThat(spool.count()).isEqualTo(limit + 5_000);
            assertThat(spool.truncated()).isTrue();
            List<Problem> kept = replay(spool);
            assertThat(kept).hasSize(limit);
            for (int i = 0; i < limit; i++) {
                assertThat(kept.get(i)).isEqualTo(problem(i));
            }
        }
    }

    @Test
    void underTheLimitNothingIsCut() throws IOException {
        try (ErrorSpool spool = new ErrorSpool(3, dir)) {
            spool.add(problem(0));
            spool.add(problem(1));
            spool.add(problem(2));

            assertThat(spool.truncated()).isFalse();
            assertThat(replay(spool)).containsExactly(problem(0), problem(1), problem(2));
        }
    }

    @Test
    void aLimitOfZeroOnlyCounts() throws IOException {
        try (ErrorSpool spool = new ErrorSpool(0, dir)) {
            spool.add(problem(0));

            assertThat(spool.count()).isEqualTo(1);
            assertThat(spool.truncated()).isTrue();
            assertThat(replay(spool)).isEmpty();
        }
    }

    @Test
    @DisabledOnOs(OS.WINDOWS) // which cannot unlink an open file
    void theSpillFileHasNoNameWhileInUse() throws IOException {
        try (ErrorSpool spool = new ErrorSpool(Long.MAX_VALUE, dir)) {
            for (long i = 0; i < 2L * ErrorSpool.IN_MEMORY; i++) {
                spool.add(problem(i));
            }

            // Spilled, yet nothing in the directory: a killed process leaves nothing behind.
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files).isEmpty();
            }
            assertThat(replay(spool)).hasSize(2 * ErrorSpool.IN_MEMORY);
        }
    }
}
