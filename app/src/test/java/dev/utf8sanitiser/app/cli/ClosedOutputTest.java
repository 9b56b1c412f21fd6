package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reader that goes away ({@code check --all | head}) ends a command quietly. */
class ClosedOutputTest {
    @TempDir
    Path dir;

    /** Takes {@code capacity} bytes, then fails every write and flush as a closed pipe does on Linux. */
    private static final class ClosingPipe extends OutputStream {
        private final int capacity;
        private int written;
        private int failures;

        ClosingPipe(int capacity) {
            this.capacity = capacity;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (written + len > capacity) {
                failures++;
                throw new IOException("Broken pipe");
            }
            written += len;
        }
    }

    private record Run(int exit, String stderr, int failedWrites) {}

    private static Run run(byte[] stdin, int capacity, String... args) {
        ClosingPipe out = new ClosingPipe(capacity);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Io io = new Io(new ByteArrayInputStream(stdin), out, new PrintStream(err, true, StandardCharsets.UTF_8), false);
        int exit = Main.execute(io, args);
        return new Run(exit, err.toString(StandardCharsets.UTF_8), out.failures);
    }

    private Path noise(int size) throws IOException {
        byte[] bytes = new byte[size];
        new Random(7).nextBytes(bytes);
        return Files.write(dir.resolve("noise.bin"), bytes);
    }

    @Test
    void checkAllStopsQuietlyWithTheResultSoFar() throws IOException {
        Run run = run(new byte[0], 100, "check", "--all", noise(1 << 20).toString());

        assertThat(run.stderr()).isEmpty();
        assertThat(run.exit()).isEqualTo(ExitCode.ILL_FORMED);
        // It stopped at the first failed write rather than reading on and failing at every line.
        assertThat(run.failedWrites()).isEqualTo(1);
    }

    @Test
    void checkJsonStopsQuietly() throws IOException {
        Run run =
                run(new byte[0], 10, "check", "--all", "--json", noise(1 << 16).toString());

        assertThat(run.stderr()).isEmpty();
        assertThat(run.exit()).isEqualTo(ExitCode.ILL_FORMED);
    }

    @Test
    void checkOfWellFormedInputsKeepsExitZero() throws IOException {
        Path good = Files.writeString(dir.resolve("good.txt"), "fine\n");

        Run run = run(new byte[0], 10, "check", "--json", good.toString(), good.toString());

        assertThat(run.stderr()).isEmpty();
        assertThat(run.exit()).isEqualTo(ExitCode.OK);
    }

    @Test
    void replaceStopsQuietly() throws IOException {
        byte[] input = Files.readAllBytes(noise(1 << 20));

        Run run = run(input, 1000, "replace");

        assertThat(run.stderr()).isEmpty();
        assertThat(run.exit()).isEqualTo(ExitCode.OK);
    }

    @Test
    void anotherWriteErrorIsStillReported() throws IOException {
        Path bad = Files.write(dir.resolve("bad.txt"), new byte[] {(byte) 0xFF});
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OutputStream full = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        };
        Io io = new Io(
                new ByteArrayInputStream(new byte[0]), full, new PrintStream(err, true, StandardCharsets.UTF_8), false);

        int exit = Main.execute(io, "check", bad.toString());

        assertThat(exit).isEqualTo(ExitCode.USAGE_OR_UNREADABLE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("utf8-sanitiser: check: No space left on device\n");
    }
}
