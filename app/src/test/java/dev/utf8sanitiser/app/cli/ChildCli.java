package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.testkit.ChildJvm;
import java.util.ArrayList;
import java.util.List;

/** The command line as a child JVM, for what only a real process shows: pipes, signals, closed descriptors. */
public final class ChildCli {
    private ChildCli() {}

    /**
     * {@code java -cp <this test's class path> [jvmOptions] Main args}, with testkit's ChildJvm
     * options and a heap of 256 MB unless {@code jvmOptions} sets another (the last -Xmx wins).
     */
    public static List<String> command(List<String> jvmOptions, String... args) {
        return ChildJvm.command("-Xmx256m", jvmOptions, Main.class.getName(), args);
    }

    static List<String> command(String... args) {
        return command(List.of(), args);
    }

    /** The same command started by a shell that first closes its standard input ({@code exec 0<&-}). */
    static List<String> withStdinClosed(List<String> command) {
        List<String> shell = new ArrayList<>(List.of("sh", "-c", "exec 0<&- && exec \"$@\"", "sh"));
        shell.addAll(command);
        return shell;
    }
}
