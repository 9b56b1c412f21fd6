package dev.utf8sanitiser.app.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The streams a command reads and writes, injected so tests can drive the commands in-process.
 *
 * @param in standard input, raw bytes
 * @param out standard output, raw bytes (replaced text goes here unchanged)
 * @param err diagnostics, UTF-8 text
 * @param stderrIsTerminal whether a progress bar may be drawn on {@code err}
 */
public record Io(InputStream in, OutputStream out, PrintStream err, boolean stderrIsTerminal) {

    /**
     * The process's own streams, unbuffered input and a 64 KiB buffer on output. A standard input
     * that was closed when the process started fails every read ({@link StandardInput}).
     */
    public static Io system() {
        return new Io(
                StandardInput.open(),
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8),
                Terminal.isTerminal(2));
    }
}
