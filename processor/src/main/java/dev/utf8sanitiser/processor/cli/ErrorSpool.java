package dev.utf8sanitiser.processor.cli;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8ErrorListener;
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
 * Holds the errors of one input until they can be written. {@code check --all --json} must print
 * {@code wellFormed} and {@code bytes} before the error list, yet knows them only at the end; a
 * file of pure garbage has an error per byte, so past {@link #IN_MEMORY} errors the spool moves to
 * a temporary file and memory stays constant.
 */
final class ErrorSpool implements Utf8ErrorListener, AutoCloseable {
    static final int IN_MEMORY = 1 << 16;
    private static final Rule[] RULES = Rule.values();

    private final List<Utf8Error> memory = new ArrayList<>();
    private Path file;
    private DataOutputStream spill;
    private long count;

    @Override
    public void onError(Utf8Error error) {
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
            spill.writeByte(error.rule().ordinal());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spool errors to a temporary file", e);
        }
    }

    long count() {
        return count;
    }

    /** Replays every error in order. */
    void forEach(Utf8ErrorListener listener) throws IOException {
        memory.forEach(listener::onError);
        if (spill == null) {
            return;
        }
        spill.flush();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            for (long n = memory.size(); n < count; n++) {
                listener.onError(new Utf8Error(in.readLong(), in.readByte(), RULES[in.readByte()]));
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
