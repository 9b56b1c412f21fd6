package dev.utf8sanitiser.core;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;

/**
 * Validates input that arrives in chunks (files, sockets, cut buffers). Errors reach the listener
 * with absolute offsets and maximal-subpart lengths equal to those {@link Utf8Validator} gives for
 * the whole input as one array, however the input is cut. Call {@link #finish()} at the end of the
 * input: only then is a sequence cut by the end reported as {@link Rule#TRUNCATED_AT_END}.
 *
 * <p>Not thread-safe; memory use is constant.
 */
public final class Utf8StreamValidator {
    private final SanitisingStream stream;
    private long errorCount;
    private Utf8Error firstError;

    /** A validator that reports each error to {@code listener} as soon as it is certain. */
    public Utf8StreamValidator(Utf8ErrorListener listener) {
        Objects.requireNonNull(listener, "listener");
        this.stream = new SanitisingStream(Policy.STRICT, new SanitisingStream.Sink() {
            @Override
            public void wellFormed(byte[] bytes, int from, int to) {}

            @Override
            public void illFormed(long offset, int length, Rule rule) {
                Utf8Error error = new Utf8Error(offset, length, rule);
                if (errorCount++ == 0) {
                    firstError = error;
                }
                listener.onError(error);
            }

            @Override
            public void repaired(long offset, int length, Repair.Kind kind, int codePoint) {
                throw new AssertionError("STRICT repairs nothing");
            }
        });
    }

    /** A validator that only counts and remembers the first error. */
    public Utf8StreamValidator() {
        this(error -> {});
    }

    /** Feeds all of {@code bytes}. */
    public void update(byte[] bytes) {
        update(bytes, 0, bytes.length);
    }

    /** Feeds {@code bytes[offset, offset + length)}. */
    public void update(byte[] bytes, int offset, int length) {
        stream.feed(bytes, offset, length);
    }

    /** Feeds the buffer's remaining bytes and advances its position to its limit. */
    public void update(ByteBuffer buffer) {
        if (buffer.hasArray()) {
            stream.feed(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
            buffer.position(buffer.limit());
            return;
        }
        byte[] chunk = new byte[Math.min(buffer.remaining(), 8192)];
        while (buffer.hasRemaining()) {
            int n = Math.min(chunk.length, buffer.remaining());
            buffer.get(chunk, 0, n);
            stream.feed(chunk, 0, n);
        }
    }

    /** Ends the input. Further updates are an error of the caller's. */
    public void finish() {
        stream.finish();
    }

    /** Bytes fed so far. */
    public long bytesSeen() {
        return stream.position();
    }

    /** How many errors were reported so far. */
    public long errorCount() {
        return errorCount;
    }

    /** Whether any error was reported so far. */
    public boolean hasError() {
        return errorCount > 0;
    }

    /** The first error reported so far, or empty. */
    public Optional<Utf8Error> firstError() {
        return Optional.ofNullable(firstError);
    }
}
