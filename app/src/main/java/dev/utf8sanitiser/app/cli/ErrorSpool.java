package dev.utf8sanitiser.app.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Holds the problems of one input until they can be written. {@code check --all --json} must print
 * {@code wellFormed} and {@code bytes} before the error list, yet knows them only at the end; a
 * file of pure garbage has an error per byte or two. So the spool keeps at most {@code limit}
 * problems (it counts the rest), the first {@link #IN_MEMORY} in memory and the others in a
 * temporary file of {@link #RECORD} bytes each: memory stays constant and the file bounded.
 *
 * <p>The file is opened with {@code DELETE_ON_CLOSE}, which on Linux and macOS unlinks it at once:
 * it has no name while the spool reads and writes it, so nothing is left behind however the
 * process ends (SIGTERM, SIGKILL, a crash). Windows deletes it when the handle closes, which the
 * system does for a killed process too.
 */
final class ErrorSpool implements AutoCloseable {
    static final int IN_MEMORY = 1 << 16;
    /** An offset (8 bytes), a length and a rule code (a byte each). */
    static final int RECORD = 10;

    private final long limit;
    private final Path directory;
    private final List<Problem> memory = new ArrayList<>();
    private final ByteBuffer buffer = ByteBuffer.allocate(RECORD * 6554);
    private FileChannel spill;
    private long count;

    /**
     * @param limit the most problems kept; the rest are only counted
     * @param directory where the spill file goes
     */
    ErrorSpool(long limit, Path directory) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }
        this.limit = limit;
        this.directory = directory;
    }

    /** A spool that spills to the system's temporary directory. */
    ErrorSpool(long limit) {
        this(limit, Path.of(System.getProperty("java.io.tmpdir")));
    }

    void add(Problem error) {
        add(error.offset(), error.length(), error.code());
    }

    void add(long offset, int length, int code) {
        count++;
        if (count > limit) {
            return;
        }
        if (spill == null && memory.size() < IN_MEMORY) {
            memory.add(new Problem(offset, length, code));
            return;
        }
        try {
            if (spill == null) {
                spill = open();
            }
            if (buffer.remaining() < RECORD) {
                drain();
            }
            buffer.putLong(offset).put((byte) length).put((byte) code);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot keep the errors in a temporary file in " + directory
                            + " (java.io.tmpdir; UTF8_SANITISER_JAVA_OPTS=-Djava.io.tmpdir=DIR sets it)",
                    e);
        }
    }

    /** Every problem added, kept or not. */
    long count() {
        return count;
    }

    /** Whether some problems were only counted, not kept. */
    boolean truncated() {
        return count > limit;
    }

    /** Replays every problem kept, in order. */
    void forEach(Consumer<Problem> listener) throws IOException {
        memory.forEach(listener);
        if (spill == null) {
            return;
        }
        drain();
        long kept = Math.min(count, limit) - memory.size();
        ByteBuffer in = ByteBuffer.allocate(buffer.capacity());
        long position = 0;
        for (long n = 0; n < kept; ) {
            in.clear();
            int read = spill.read(in, position);
            if (read < RECORD) {
                throw new IOException("the spool file ended early");
            }
            position += read - read % RECORD;
            in.flip();
            while (in.remaining() >= RECORD && n < kept) {
                listener.accept(new Problem(in.getLong(), in.get(), in.get()));
                n++;
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (spill != null) {
            spill.close();
        }
    }

    private FileChannel open() throws IOException {
        Path file = Files.createTempFile(directory, "utf8-sanitiser-errors", ".bin");
        try {
            return FileChannel.open(
                    file, StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    private void drain() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            spill.write(buffer);
        }
        buffer.clear();
    }
}
