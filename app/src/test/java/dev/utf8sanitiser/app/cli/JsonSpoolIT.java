package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --all --json} stopped by SIGTERM while it spools errors to a temporary file: the
 * file must not outlive the process (on a large damaged input it grows to gigabytes). The child's
 * open descriptors (Linux's {@code /proc}) show that it did spool before it was stopped.
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
        // The spool file has no name once open (ErrorSpool), but the child holds it open.
        assertThat(openSpoolFiles(process, tmp))
                .as("the spool files the child has open in %s", tmp)
                .isNotEmpty();

        process.destroy(); // SIGTERM, stdin still open: the check is mid-input
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();

        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .noneMatch(name -> name.startsWith("utf8-sanitiser-errors"));
        }
        stdin.close();
    }

    /** What the child's open descriptors point to that is a spool file in {@code tmp}. */
    private static List<String> openSpoolFiles(Process process, Path tmp) throws IOException {
        Path descriptors = Path.of("/proc", String.valueOf(process.pid()), "fd");
        assumeTrue(Files.isDirectory(descriptors), "a /proc file system (Linux) to see the child's descriptors");
        List<String> spools = new ArrayList<>();
        try (Stream<Path> each = Files.list(descriptors)) {
            for (Path descriptor : (Iterable<Path>) each::iterator) {
                String target;
                try {
                    target = Files.readSymbolicLink(descriptor).toString();
                } catch (IOException e) {
                    continue; // closed since it was listed
                }
                if (target.startsWith(tmp.toRealPath() + "/utf8-sanitiser-errors")) {
                    spools.add(target);
                }
            }
        }
        return spools;
    }
}
