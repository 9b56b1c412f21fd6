package dev.utf8sanitiser.processor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --all --json} stopped by SIGTERM while it spools errors to a temporary file: the
 * file must not outlive the process (it once grew to gigabytes on a large damaged input and stayed).
 */
class JsonSpoolIT {
    @TempDir
    Path dir;

    @Test
    void sigtermLeavesNoSpoolFileBehind() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Process process = new ProcessBuilder(
                        ChildCli.command(List.of("-Djava.io.tmpdir=" + tmp), "check", "--all", "--json", "-"))
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile())
                .start();
        byte[] noise = new byte[1 << 20];
        new Random(5).nextBytes(noise); // about 600,000 errors: well past what stays in memory
        OutputStream stdin = process.getOutputStream();
        stdin.write(noise);
        stdin.flush();
        // A pipe holds 64 KiB, so once this second megabyte is written the child has read, and
        // spooled, every error of the first.
        stdin.write(noise);
        stdin.flush();

        process.destroy(); // SIGTERM, stdin still open: the check is mid-input
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();

        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .noneMatch(name -> name.startsWith("utf8-sanitiser-errors"));
        }
        stdin.close();
    }
}
