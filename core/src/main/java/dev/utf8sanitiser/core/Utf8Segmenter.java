package dev.utf8sanitiser.core;

import java.util.Objects;

/**
 * Cuts a byte stream, fed in chunks of any size, into well-formed runs and ill-formed maximal
 * subparts, in order, with absolute offsets. A sequence cut by a chunk boundary is held back (at
 * most three bytes) until the next chunk or {@link #finish()} decides it, so the answers equal
 * those for the whole input in one array, however it is cut.
 *
 * <p>This is the one streaming definition: {@link Utf8StreamValidator} listens to the errors and
 * {@link ReplacingOutputStream} to both kinds of segment. Not thread-safe.
 */
final class Utf8Segmenter {
    /** Receives the segments in input order. */
    interface Segments {
        /** {@code bytes[from, to)} is well-formed; valid only during the call. */
        void wellFormed(byte[] bytes, int from, int to);

        void illFormed(long offset, int length, Rule rule);
    }

    private final Segments segments;
    // The valid but incomplete sequence cut by the end of the last chunk, plus room to complete it.
    private final byte[] pending = new byte[4];
    private int pendingLength;
    private long position; // bytes fed so far

    Utf8Segmenter(Segments segments) {
        this.segments = Objects.requireNonNull(segments, "segments");
    }

    void feed(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        int to = offset + length;
        int i = offset;
        if (pendingLength > 0) {
            i = completePending(bytes, offset, to);
        }
        if (i >= 0) {
            long chunkStart = position - offset; // absolute offset of bytes[0]
            while (i < to) {
                int end = Utf8Validator.validPrefixEnd(bytes, i, to);
                if (end > i) {
                    segments.wellFormed(bytes, i, end);
                }
                if (end == to) {
                    break;
                }
                int subpart = MaximalSubpart.at(bytes, end, to);
                Rule rule = MaximalSubpart.rule(subpart);
                if (rule == Rule.TRUNCATED_AT_END) {
                    // Only the next chunk can tell whether this prefix completes.
                    pendingLength = to - end;
                    System.arraycopy(bytes, end, pending, 0, pendingLength);
                    break;
                }
                segments.illFormed(chunkStart + end, MaximalSubpart.length(subpart), rule);
                i = end + MaximalSubpart.length(subpart);
            }
        }
        position += length;
    }

    /**
     * Decides the held-back sequence with the first bytes of this chunk. Returns the index in
     * {@code bytes} where scanning resumes, or -1 when the chunk was too short to decide.
     */
    private int completePending(byte[] bytes, int offset, int to) {
        int held = pendingLength;
        int taken = Math.min(pending.length - held, to - offset);
        System.arraycopy(bytes, offset, pending, held, taken);
        int subpart = MaximalSubpart.at(pending, 0, held + taken);
        long pendingStart = position - held;
        if (MaximalSubpart.isWellFormed(subpart)) {
            segments.wellFormed(pending, 0, MaximalSubpart.length(subpart));
        } else if (MaximalSubpart.rule(subpart) == Rule.TRUNCATED_AT_END) {
            pendingLength = held + taken; // still a valid prefix, and the chunk is used up
            return -1;
        } else {
            segments.illFormed(pendingStart, MaximalSubpart.length(subpart), MaximalSubpart.rule(subpart));
        }
        pendingLength = 0;
        // The held bytes were a valid prefix, so the decided sequence covers all of them: the
        // scan resumes inside this chunk, never inside the held bytes.
        return offset + MaximalSubpart.length(subpart) - held;
    }

    /** Ends the input: a held-back prefix is now truncated by the end. */
    void finish() {
        if (pendingLength > 0) {
            segments.illFormed(position - pendingLength, pendingLength, Rule.TRUNCATED_AT_END);
            pendingLength = 0;
        }
    }

    long position() {
        return position;
    }
}
