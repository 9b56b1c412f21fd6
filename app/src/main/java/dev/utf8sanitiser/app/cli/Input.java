package dev.utf8sanitiser.app.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * One input named on the command line: a file, or standard input as {@code -}.
 *
 * <p>Opening turns the I/O exceptions a user causes into one-line messages ({@link
 * UnreadableInputException}), so commands never print a stack trace for a missing file.
 */
final class Input {
    static final String STDIN = "-";

    private final String name;

    Input(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    boolean isStdin() {
        return STDIN.equals(name);
    }

    /** The size in bytes, when it is known before reading (a regular file). */
    OptionalLong size() {
        if (isStdin()) {
            return OptionalLong.empty();
        }
        try {
            Path path = Path.of(name);
            return Files.isRegularFile(path) ? OptionalLong.of(Files.size(path)) : OptionalLong.empty();
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    InputStream open(Io io) throws UnreadableInputException {
        if (isStdin()) {
            return io.in();
        }
        Path path = Path.of(name);
        if (Files.isDirectory(path)) {
            throw new UnreadableInputException(name, "is a directory");
        }
        try {
            return Files.newInputStream(path);
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /** Reads from this input's open stream; a failure becomes a one-line message. */
    int read(InputStream in, byte[] buffer) throws UnreadableInputException {
        try {
            return in.read(buffer);
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /** A read failure after opening, as a one-line message. */
    UnreadableInputException unreadable(IOException e) {
        return new UnreadableInputException(name, FileFailure.reason(e));
    }
}
