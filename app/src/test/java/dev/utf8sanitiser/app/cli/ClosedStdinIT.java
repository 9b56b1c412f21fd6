package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command started with its standard input closed ({@code check - <&-}). The JVM's first file
 * takes descriptor 0, so without the check {@code check -} read the JDK's lib/modules and {@code
 * replace -} copied all 145 MB of it to stdout with exit 0.
 */
class ClosedStdinIT {
    @TempDir
    Path dir;

    private record Result(int exit, long stdoutBytes, String stderr) {}

    private Result runWithStdinClosed(String... args) throws Exception {
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process process = new ProcessBuilder(ChildCli.withStdinClosed(ChildCli.command(args)))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the child ended").isTrue();
        return new Result(process.exitValue(), Files.size(out), Files.readString(err));
    }

    @Test
    void checkSaysStandardInputIsClosed() throws Exception {
        Result result = runWithStdinClosed("check", "-");

        assertThat(result.stderr()).isEqualTo("utf8-sanitiser: -: standard input is closed\n");
        assertThat(result.stdoutBytes()).isZero();
        assertThat(result.exit()).isEqualTo(ExitCode.USAGE_OR_UNREADABLE);
    }

    @Test
    void replaceWritesNothing() throws Exception {
        Result result = runWithStdinClosed("replace");

        assertThat(result.stderr()).isEqualTo("utf8-sanitiser: -: standard input is closed\n");
        assertThat(result.stdoutBytes()).isZero();
        assertThat(result.exit()).isEqualTo(ExitCode.USAGE_OR_UNREADABLE);
    }

    @Test
    void aClosedStdinDoesNotMatterToACommandThatReadsAFile() throws Exception {
        Path good = Files.writeString(dir.resolve("good.txt"), "fine\n");

        Result result = runWithStdinClosed("check", good.toString());

        assertThat(result.stderr()).isEmpty();
        assertThat(result.exit()).isEqualTo(ExitCode.OK);
    }
}
