package dev.utf8sanitiser.core.corrected;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Decoding: Corrected UTF-8 in, standard UTF-8 out. Stops at the first sequence that has no code
 * point (a stray continuation byte, a truncated or a reserved sequence) or whose code point lies
 * above U+10FFFF. A sequence cut by the end of a chunk (at most five bytes) is held back; so are
 * the first bytes of the input while they may still be a magic number to drop (at most seven).
 */
final class CorrectedToUtf8 extends Transcoder {
    private static final byte[] MAGIC_NUMBER = CorrectedUtf8.MAGIC_NUMBER;

    /** Whether the input so far is a proper prefix of a magic number that is to be dropped. */
    private boolean matchingMagicNumber;

    private int magicNumberMatched;
    private final byte[] pending = new byte[6];
    private int pendingLength;

    CorrectedToUtf8(OutputStream out, MagicNumber magicNumber) {
        super(out);
        this.matchingMagicNumber = magicNumber == MagicNumber.LEADING;
    }

    @Override
    void feed(byte[] bytes, int offset, int length) throws IOException {
        int from = offset;
        if (matchingMagicNumber) {
            int to = offset + length;
            while (from < to
                    && magicNumberMatched < MAGIC_NUMBER.length
                    && bytes[from] == MAGIC_NUMBER[magicNumberMatched]) {
                from++;
                magicNumberMatched++;
            }
            if (magicNumberMatched == MAGIC_NUMBER.length) {
                matchingMagicNumber = false;
                position += MAGIC_NUMBER.length; // dropped, but offsets still count it
            } else if (from == to) {
                return; // undecided
            } else {
                // Not a magic number after all: what matched so far is text.
                matchingMagicNumber = false;
                decode(MAGIC_NUMBER, 0, magicNumberMatched);
            }
        }
        decode(bytes, from, length - (from - offset));
    }

    private void decode(byte[] bytes, int offset, int length) throws IOException {
        int to = offset + length;
        int i = pendingLength > 0 ? completePending(bytes, offset, to) : offset;
        if (i >= 0) {
            long chunkStart = position - offset; // the offset in the whole input of bytes[0]
            while (i < to) {
                reserve();
                int b = bytes[i];
                if (b >= 0) {
                    buffer[buffered++] = (byte) b;
                    i++;
                    continue;
                }
                long sequence = CorrectedSequence.at(bytes, i, to);
                if (CorrectedSequence.isComplete(sequence)) {
                    writeUtf8(CorrectedSequence.codePoint(sequence), chunkStart + i);
                    i += CorrectedSequence.length(sequence);
                    continue;
                }
                CorrectedRule rule = CorrectedSequence.rule(sequence);
                if (rule != CorrectedRule.TRUNCATED_AT_END) {
                    throw stop(chunkStart + i, rule);
                }
                // Only the next chunk can tell whether this sequence completes.
                pendingLength = to - i;
                System.arraycopy(bytes, i, pending, 0, pendingLength);
                break;
            }
        }
        position += length;
    }

    /**
     * Decides the held-back sequence with the first bytes of this chunk. Returns the index in {@code
     * bytes} where the chunk resumes, or -1 when the chunk was too short to decide.
     */
    private int completePending(byte[] bytes, int offset, int to) throws IOException {
        int held = pendingLength;
        int taken = Math.min(CorrectedSequence.lengthOfLead(pending[0] & 0xFF) - held, to - offset);
        System.arraycopy(bytes, offset, pending, held, taken);
        long start = position - held;
        long sequence = CorrectedSequence.at(pending, 0, held + taken);
        if (CorrectedSequence.isComplete(sequence)) {
            pendingLength = 0;
            reserve();
            writeUtf8(CorrectedSequence.codePoint(sequence), start);
            return offset + taken;
        }
        CorrectedRule rule = CorrectedSequence.rule(sequence);
        if (rule == CorrectedRule.TRUNCATED_AT_END) {
            pendingLength = held + taken; // still a valid prefix, and the chunk is used up
            return -1;
        }
        throw stop(start, rule);
    }

    /**
     * Writes the code point of a multi-byte sequence (U+00A0 or above) as standard UTF-8 (Unicode
     * Table 3-6), or stops when it lies above U+10FFFF. It is never a surrogate or a C1 control:
     * Corrected UTF-8 encodes neither.
     */
    private void writeUtf8(long codePoint, long offset) throws IOException {
        if (codePoint > Character.MAX_CODE_POINT) {
            throw stop(offset, CorrectedRule.OUT_OF_RANGE);
        }
        int c = (int) codePoint;
        byte[] out = buffer;
        int w = buffered;
        if (c < 0x800) {
            out[w] = (byte) (0xC0 | c >>> 6);
            out[w + 1] = (byte) (0x80 | (c & 0x3F));
            buffered = w + 2;
        } else if (c < 0x10000) {
            out[w] = (byte) (0xE0 | c >>> 12);
            out[w + 1] = (byte) (0x80 | (c >>> 6 & 0x3F));
            out[w + 2] = (byte) (0x80 | (c & 0x3F));
            buffered = w + 3;
        } else {
            out[w] = (byte) (0xF0 | c >>> 18);
            out[w + 1] = (byte) (0x80 | (c >>> 12 & 0x3F));
            out[w + 2] = (byte) (0x80 | (c >>> 6 & 0x3F));
            out[w + 3] = (byte) (0x80 | (c & 0x3F));
            buffered = w + 4;
        }
    }

    @Override
    void finish() throws IOException {
        if (matchingMagicNumber) {
            matchingMagicNumber = false;
            decode(MAGIC_NUMBER, 0, magicNumberMatched); // the input ended inside a magic number
        }
        if (pendingLength > 0) {
            throw stop(position - pendingLength, CorrectedRule.TRUNCATED_AT_END);
        }
        drain();
    }
}
