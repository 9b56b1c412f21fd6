package dev.utf8sanitiser.app.cli;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The process's standard input, or, when it was closed ({@code check - <&-}), a stream that fails
 * every read with "standard input is closed".
 *
 * <p>A closed descriptor 0 does not stay closed: the JVM opens its own files before {@code main}
 * runs, and the first gets the lowest free descriptor, 0. Reading "standard input" then reads that
 * file, on Linux the JDK's {@code lib/modules} (145 MB). {@link FileDescriptor#valid()} is true and
 * {@code available()} is the file's size, so neither tells. What does, on Linux, is where {@code
 * /proc/self/fd/0} points: nowhere, or to a file of the JDK or of the class path. Elsewhere the
 * answer is "open".
 */
final class StandardInput {
    static final String CLOSED = "standard input is closed";

    private StandardInput() {}

    static InputStream open() {
        return isClosed() ? closed() : new FileInputStream(FileDescriptor.in);
    }

    static boolean isClosed() {
        Path fd0 = Path.of("/proc/self/fd/0");
        if (!Files.isDirectory(Path.of("/proc/self/fd"))) {
            return false; // not Linux: no way to tell
        }
        try {
            return isJvmFile(Files.readSymbolicLink(fd0), jvmFiles());
        } catch (NoSuchFileException e) {
            return true; // descriptor 0 is not open at all
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** Whether {@code target}, what descriptor 0 points to, is one of the JVM's own files or under one. */
    static boolean isJvmFile(Path target, List<Path> jvmFiles) {
        if (!target.isAbsolute()) {
            return false; // pipe:[1234], socket:[5678]
        }
        Path normal = target.normalize();
        return jvmFiles.stream().anyMatch(normal::startsWith);
    }

    /** The JDK and every class path entry: the files the JVM opens for itself. */
    private static List<Path> jvmFiles() {
        List<Path> files = new ArrayList<>();
        add(files, System.getProperty("java.home"));
        String classPath = System.getProperty("java.class.path", "");
        for (String entry : classPath.split(File.pathSeparator)) {
            add(files, entry);
        }
        return files;
    }

    private static void add(List<Path> files, String path) {
        if (path == null || path.isEmpty()) {
            return;
        }
        try {
            files.add(Path.of(path).toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            // Not a path this process could have opened.
        }
    }

    private static InputStream closed() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException(CLOSED);
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                throw new IOException(CLOSED);
            }
        };
    }
}
