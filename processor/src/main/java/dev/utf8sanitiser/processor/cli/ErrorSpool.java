package dev.utf8sanitiser.processor.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds the problems of one input until they can be written. {@code check --all --json} must print
 * {@code wellFormed} and {@code bytes} before the error list, yet knows them only at the end; a
 * file of pure garbage has an error per byte, so past {@link #IN_MEMORY} errors the spool moves to
 * a temporary file and memory stays constant.
 */
final class ErrorSpool implements AutoCloseable {
    static final int IN_MEMORY = 1 << 16;
    private final List<Problem> memory = new ArrayList<>();
    private Path file;
    private DataOutputStream spill;
    private long count;

    void add(Problem error) {
        count++;
        if (spill == null && memory.size() < IN_MEMORY) {
            memory.add(error);
            return;
        }
        try {
            if (spill == null) {
                file = Files.createTempFile("utf8-sanitiser-errors", ".bin");
                spill = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16));
            }
            spill.writeLong(error.offset());
            spill.writeByte(error.length());
            spill.writeByte(error.code());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spool errors to a temporary file", e);
        }
    }

    long count() {
        return count;
    }

    /** Replays every error in order. */
    void forEach(java.util.function.Consumer<Problem> listener) throws IOException {
        memory.forEach(listener);
        if (spill == null) {
            return;
        }
        spill.flush();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            for (long n = memory.size(); n < count; n++) {
                listener.accept(new Problem(in.readLong(), in.readByte(), in.readByte()));
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (spill != null) {
            spill.close();
            Files.deleteIfExists(file);
        }
    }
}
