package dev.utf8sanitiser.app.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line as a child JVM, for what only a real process shows: pipes, signals, closed descriptors. */
final class ChildCli {
    private ChildCli() {}

    /** {@code java -cp <this test's class path> [jvmOptions] Main args}. */
    static List<String> command(List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        return command;
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
