package dev.utf8sanitiser.core;

import java.util.Objects;

/**
 * The one walk that applies a {@link Policy}, over input that may arrive in chunks. It decides a
 * sequence only when it has seen enough bytes to know: a valid prefix cut by the end of a chunk,
 * or the start of a repairable CESU-8 pair, is held back (at most five bytes) until the next chunk
 * or {@link #finish()}. So every answer, offsets included, equals the answer for the whole input as
 * one array, however it is cut.
 *
 * <p>Used by {@link Utf8Sanitiser} (one array), {@link Utf8StreamValidator} and {@link
 * SanitisingOutputStream}. Not thread-safe.
 */
final class SanitisingStream {
    /** Receives the walk's decisions in input order; offsets are absolute. */
    interface Sink {
        /** {@code bytes[from, to)} is well-formed; valid only during the call. */
        void wellFormed(byte[] bytes, int from, int to);

        void illFormed(long offset, int length, Rule rule);

        void repaired(long offset, int length, Repair.Kind kind, int codePoint);
    }

    /** Longest held-back tail: the first five bytes of a CESU-8 pair. */
    private static final int MAX_HELD = 5;
    /** Bytes of a new chunk examined together with a held tail; enough to decide all of the tail. */
    private static final int LOOKAHEAD = 16;

    private final Policy policy;
    private final Sink sink;
    private final byte[] held = new byte[MAX_HELD + LOOKAHEAD];
    private int heldLength;
    private long position; // absolute offset of the first undecided byte
    private long fed;

    SanitisingStream(Policy policy, Sink sink) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.sink = Objects.requireNonNull(sink, "sink");
    }

    void feed(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        fed += length;
        int i = offset;
        int to = offset + length;
        if (heldLength > 0) {
            int taken = Math.min(LOOKAHEAD, length);
            System.arraycopy(bytes, offset, held, heldLength, taken);
            int total = heldLength + taken;
            int decided = walk(policy, held, 0, total, false, position, sink);
            position += decided;
            if (decided < heldLength) {
                // Too few new bytes to decide the tail: keep all of it, new bytes included.
                keep(held, decided, total);
                return;
            }
            i = offset + decided - heldLength;
            heldLength = 0;
        }
        int decided = walk(policy, bytes, i, to, false, position, sink);
        position += decided - i;
        keep(bytes, decided, to);
    }

    private void keep(byte[] bytes, int from, int to) {
        heldLength = to - from;
        if (heldLength > MAX_HELD) {
            throw new IllegalStateException("held " + heldLength + " undecided bytes");
        }
        System.arraycopy(bytes, from, held, 0, heldLength);
    }

    /** Ends the input: what was held is decided now, as at the end of one array. */
    void finish() {
        if (heldLength > 0) {
            walk(policy, held, 0, heldLength, true, position, sink);
            position += heldLength;
            heldLength = 0;
        }
    }

    /** Bytes fed so far. */
    long position() {
        return fed;
    }

    /**
     * Applies the policy to {@code bytes[from, to)}, whose first byte is at absolute offset {@code
     * base}. Returns the index up to which everything was decided: {@code to}, or (when not at the
     * end of input) the start of a tail that the next bytes could still change.
     */
    static int walk(Policy policy, byte[] bytes, int from, int to, boolean endOfInput, long base, Sink sink) {
        int i = from;
        while (i < to) {
            int end = Utf8Validator.validPrefixEnd(bytes, i, to);
            if (end > i) {
                sink.wellFormed(bytes, i, end);
            }
            if (end == to) {
                return to;
            }
            long offset = base + (end - from);
            if (policy == Policy.REPAIR) {
                int repaired = repairAt(bytes, end, to, endOfInput, offset, sink);
                if (repaired < 0) {
                    return end;
                }
                if (repaired > 0) {
                    i = end + repaired;
                    continue;
                }
            }
            int subpart = MaximalSubpart.at(bytes, end, to);
            Rule rule = MaximalSubpart.rule(subpart);
            if (rule == Rule.TRUNCATED_AT_END && !endOfInput) {
                return end;
            }
            sink.illFormed(offset, MaximalSubpart.length(subpart), rule);
            i = end + MaximalSubpart.length(subpart);
        }
        return to;
    }

    /**
     * Repairs the sequence at {@code i} if it is one of the two docs/rules.md allows. Returns the bytes
     * consumed, 0 when it is no repair, or -1 when the bytes before {@code to} cannot tell yet.
     */
    private static int repairAt(byte[] bytes, int i, int to, boolean endOfInput, long offset, Sink sink) {
        int available = to - i;
        int b0 = bytes[i] & 0xFF;
        if (b0 == 0xC0) {
            if (available < 2) {
                return endOfInput ? 0 : -1;
            }
            if ((bytes[i + 1] & 0xFF) == 0x80) {
                sink.repaired(offset, 2, Repair.Kind.MODIFIED_UTF8_NUL, 0);
                return 2;
            }
            return 0;
        }
        if (b0 != 0xED) {
            return 0;
        }
        // ED A0..AF 80..BF | ED B0..BF 80..BF: test the bytes there are; undecided if all match.
        for (int k = 1; k < 6; k++) {
            if (k >= available) {
                return endOfInput ? 0 : -1;
            }
            int b = bytes[i + k] & 0xFF;
            boolean ok =
                    switch (k) {
                        case 1 -> b >= 0xA0 && b <= 0xAF; // high surrogate D800..DBFF
                        case 3 -> b == 0xED;
                        case 4 -> b >= 0xB0 && b <= 0xBF; // low surrogate DC00..DFFF
                        default -> (b & 0xC0) == 0x80;
                    };
            if (!ok) {
                return 0;
            }
        }
        int high = threeByteValue(bytes, i);
        int low = threeByteValue(bytes, i + 3);
        int codePoint = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        sink.repaired(offset, 6, Repair.Kind.CESU8_SURROGATE_PAIR, codePoint);
        return 6;
    }

    private static int threeByteValue(byte[] bytes, int i) {
        return (bytes[i] & 0x0F) << 12 | (bytes[i + 1] & 0x3F) << 6 | (bytes[i + 2] & 0x3F);
    }
}
