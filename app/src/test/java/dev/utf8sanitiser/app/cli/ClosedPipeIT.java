package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --all | head} and {@code replace | head} in a real pipe: the child JVM writes until
 * the reader closes its end, then gets EPIPE. It must end quietly, not with a stack trace.
 */
class ClosedPipeIT {
    @TempDir
    Path dir;

    private Path noise() throws IOException {
        byte[] bytes = new byte[4 << 20];
        new Random(11).nextBytes(bytes);
        return Files.write(dir.resolve("noise.bin"), bytes);
    }

    /** Starts the command, reads {@code keep} bytes of its output, closes the pipe and waits. */
    private int runAndCloseEarly(Path stderr, int keep, String... args) throws Exception {
        Process process = new ProcessBuilder(ChildCli.command(args))
                .redirectError(stderr.toFile())
                .start();
        try (InputStream out = process.getInputStream()) {
            assertThat(out.readNBytes(keep)).hasSize(keep);
        } // closed: the child's next write fails with EPIPE
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();
        return process.exitValue();
    }

    @Test
    void checkAllEndsQuietlyWithExitOne() throws Exception {
        Path stderr = dir.resolve("check.err");

        int exit = runAndCloseEarly(stderr, 200, "check", "--all", noise().toString());

        assertThat(Files.readString(stderr)).isEmpty();
        assertThat(exit).isEqualTo(ExitCode.ILL_FORMED);
    }

    @Test
    void replaceEndsQuietlyWithExitZero() throws Exception {
        Path stderr = dir.resolve("replace.err");

        int exit = runAndCloseEarly(stderr, 200, "replace", noise().toString());

        assertThat(Files.readString(stderr)).isEmpty();
        assertThat(exit).isEqualTo(ExitCode.OK);
    }
}
