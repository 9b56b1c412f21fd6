package dev.utf8sanitiser.core.corrected;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

/**
 * Encoding: standard UTF-8 in, Corrected UTF-8 out. Each chunk is first checked by {@link
 * Utf8Validator}, so ill-formed input stops with exactly the offset and rule the validator gives;
 * the well-formed run before it is then decoded without further checks, and stops at the first C1
 * control, the only well-formed UTF-8 that Corrected UTF-8 cannot carry. A valid prefix cut by the
 * end of a chunk (at most three bytes) is held back.
 */
final class Utf8ToCorrected extends Transcoder {
    private final boolean writeMagicNumber;
    private boolean started;
    private final byte[] pending = new byte[4];
    private int pendingLength;

    Utf8ToCorrected(OutputStream out, MagicNumber magicNumber) {
        super(out);
        this.writeMagicNumber = magicNumber == MagicNumber.LEADING;
    }

    @Override
    void feed(byte[] bytes, int offset, int length) throws IOException {
        start();
        int to = offset + length;
        int i = pendingLength > 0 ? completePending(bytes, offset, to) : offset;
        if (i >= 0 && i < to) {
            long chunkStart = position - offset; // the offset in the whole input of bytes[0]
            Optional<Utf8Error> error = Utf8Validator.firstError(bytes, i, to - i);
            int wellFormedEnd = error.isPresent() ? i + (int) error.get().offset() : to;
            encodeWellFormed(bytes, i, wellFormedEnd, chunkStart);
            if (error.isPresent()) {
                Rule rule = error.get().rule();
                if (rule != Rule.TRUNCATED_AT_END) {
                    throw stop(chunkStart + wellFormedEnd, CorrectedRule.of(rule));
                }
                // Only the next chunk can tell whether this valid prefix completes.
                pendingLength = to - wellFormedEnd;
                System.arraycopy(bytes, wellFormedEnd, pending, 0, pendingLength);
            }
        }
        position += length;
    }

    /**
     * Decides the held-back prefix with the first bytes of this chunk. Returns the index in {@code
     * bytes} where the chunk resumes, or -1 when the chunk was too short to decide.
     */
    private int completePending(byte[] bytes, int offset, int to) throws IOException {
        int held = pendingLength;
        int taken = Math.min(utf8Length(pending[0] & 0xFF) - held, to - offset);
        System.arraycopy(bytes, offset, pending, held, taken);
        long start = position - held;
        // At most one sequence, from a valid lead: any error is at its start.
        Optional<Utf8Error> error = Utf8Validator.firstError(pending, 0, held + taken);
        if (error.isEmpty()) {
            pendingLength = 0;
            encodeWellFormed(pending, 0, held + taken, start);
            return offset + taken;
        }
        if (error.get().rule() == Rule.TRUNCATED_AT_END) {
            pendingLength = held + taken; // still a valid prefix, and the chunk is used up
            return -1;
        }
        throw stop(start, CorrectedRule.of(error.get().rule()));
    }

    /**
     * Encodes {@code bytes[from, to)}, known to be well-formed UTF-8, whose {@code bytes[0]} is at
     * {@code base} in the whole input.
     */
    private void encodeWellFormed(byte[] bytes, int from, int to, long base) throws IOException {
        int i = from;
        while (i < to) {
            reserve();
            int b0 = bytes[i];
            if (b0 >= 0) {
                buffer[buffered++] = (byte) b0;
                i++;
                continue;
            }
            b0 &= 0xFF;
            int codePoint;
            int length;
            if (b0 < 0xE0) {
                codePoint = (b0 & 0x1F) << 6 | (bytes[i + 1] & 0x3F);
                length = 2;
                if (codePoint < CorrectedSequence.OFFSET_2) {
                    // C2 80..C2 9F: the proposal's Corrected UTF-8 "skips over them entirely".
                    throw stop(base + i, CorrectedRule.C1_CONTROL);
                }
            } else if (b0 < 0xF0) {
                codePoint = (b0 & 0x0F) << 12 | (bytes[i + 1] & 0x3F) << 6 | (bytes[i + 2] & 0x3F);
                length = 3;
            } else {
                codePoint = (b0 & 0x07) << 18
                        | (bytes[i + 1] & 0x3F) << 12
                        | (bytes[i + 2] & 0x3F) << 6
                        | (bytes[i + 3] & 0x3F);
                length = 4;
            }
            buffered += CorrectedSequence.encode(codePoint, buffer, buffered);
            i += length;
        }
    }

    /** The length of the standard UTF-8 sequence a valid lead C2..F4 starts. */
    private static int utf8Length(int lead) {
        return lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    }

    @Override
    void finish() throws IOException {
        start();
        if (pendingLength > 0) {
            throw stop(position - pendingLength, CorrectedRule.TRUNCATED_AT_END);
        }
        drain();
    }

    /** Writes the magic number, when asked, before anything else. */
    private void start() throws IOException {
        if (!started) {
            started = true;
            if (writeMagicNumber) {
                put(CorrectedUtf8.MAGIC_NUMBER);
            }
        }
    }
}
