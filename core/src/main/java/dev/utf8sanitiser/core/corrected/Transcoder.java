package dev.utf8sanitiser.core.corrected;

import java.io.IOException;
import java.io.OutputStream;

/**
 * One direction of transcoding, fed in chunks of any size, writing through a fixed buffer: memory
 * is constant whatever the input. A sequence cut by a chunk boundary is held back until the next
 * chunk or {@link #finish()} decides it, so offsets and output equal those for the whole input in
 * one array, however it is cut. The first problem drains the buffer, so everything before its offset
 * has reached the output, and throws. Not thread-safe.
 */
abstract class Transcoder {
    private static final int BUFFER_SIZE = 8192;
    /** The buffer has room for one more sequence (6 bytes at most) or the magic number (8). */
    static final int ROOM = BUFFER_SIZE - 8;

    private final OutputStream out;
    final byte[] buffer = new byte[BUFFER_SIZE];
    int buffered;
    /** Input bytes taken so far: the offset in the whole input of the next byte fed. */
    long position;

    Transcoder(OutputStream out) {
        this.out = out;
    }

    /** Transcodes {@code bytes[offset, offset + length)}, the next bytes of the input. */
    abstract void feed(byte[] bytes, int offset, int length) throws IOException;

    /** Ends the input: a sequence still held back is now truncated by the end. */
    abstract void finish() throws IOException;

    /** Makes room for one more sequence. */
    final void reserve() throws IOException {
        if (buffered > ROOM) {
            drain();
        }
    }

    final void put(byte[] bytes) throws IOException {
        reserve();
        System.arraycopy(bytes, 0, buffer, buffered, bytes.length);
        buffered += bytes.length;
    }

    /** Writes what is buffered to the underlying stream, without flushing it. */
    final void drain() throws IOException {
        if (buffered > 0) {
            out.write(buffer, 0, buffered);
            buffered = 0;
        }
    }

    /** Writes out everything before the problem and returns the exception to throw. */
    final CorrectedUtf8Exception stop(long offset, CorrectedRule rule) throws IOException {
        drain();
        return new CorrectedUtf8Exception(offset, rule);
    }
}
