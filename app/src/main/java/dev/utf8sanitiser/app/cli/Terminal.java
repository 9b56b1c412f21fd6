package dev.utf8sanitiser.app.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a file descriptor is a terminal. The JDK only answers this for stdin and stdout together
 * ({@code System.console()}), so on Linux we read where {@code /proc/self/fd/N} points; elsewhere
 * the answer is no, and the progress bar stays off.
 */
final class Terminal {
    private Terminal() {}

    static boolean isTerminal(int fd) {
        try {
            String target =
                    Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
