package dev.utf8sanitiser.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class StandardInputTest {
    private static final List<Path> JVM_FILES =
            List.of(Path.of("/usr/lib/jvm/java-17"), Path.of("/opt/app/utf8-sanitiser-app.jar"));

    @Test
    void aFileOfTheJdkOrTheClassPathOnDescriptorZeroMeansStdinWasClosed() {
        assertThat(StandardInput.isJvmFile(Path.of("/usr/lib/jvm/java-17/lib/modules"), JVM_FILES))
                .isTrue();
        assertThat(StandardInput.isJvmFile(Path.of("/opt/app/utf8-sanitiser-app.jar"), JVM_FILES))
                .isTrue();
    }

    @Test
    void pipesSocketsTerminalsAndUsersFilesAreStandardInput() {
        for (String target : List.of("pipe:[20213]", "socket:[21458]", "/dev/pts/0", "/dev/null", "/tmp/in.txt")) {
            assertThat(StandardInput.isJvmFile(Path.of(target), JVM_FILES))
                    .as(target)
                    .isFalse();
        }
        assertThat(StandardInput.isJvmFile(Path.of("/usr/lib/jvm/java-17-other/x"), JVM_FILES))
                .isFalse();
    }

    @Test
    void thisTestsOwnStandardInputIsOpen() {
        // Surefire starts the fork with a pipe on descriptor 0.
        assertThat(StandardInput.isClosed()).isFalse();
    }
}
