package dev.utf8sanitiser.core;

/**
 * The exact, slow classification of the sequence that starts at one byte: either a well-formed
 * character of 1 to 4 bytes, or an ill-formed maximal subpart with its {@link Rule}.
 *
 * <p>This is the one place that implements the order of tests of docs/rules.md: a lead that can never
 * start a well-formed sequence gets its own rule; for a valid lead, a missing second byte is
 * TRUNCATED_AT_END, a second byte outside 80..BF is TRUNCATED, a second byte inside 80..BF but
 * outside the lead's narrowed range (Table 3-7) is NON_SHORTEST_FORM, SURROGATE or OUT_OF_RANGE;
 * later bytes are only checked for 80..BF. The maximal subpart is the longest prefix of a
 * well-formed sequence that starts at the byte (Unicode §3.9, D93b), at least one byte.
 *
 * <p>The result is packed in an int so that the hot loops that call it allocate nothing: the low
 * byte is the length, the next byte is 0 for a well-formed character or {@code rule.ordinal() + 1}.
 */
final class MaximalSubpart {
    private static final Rule[] RULES = Rule.values();
    private static final int WELL_FORMED = 0;

    private MaximalSubpart() {}

    /** Classifies the sequence at {@code bytes[index]}; {@code index < end}. */
    static int at(byte[] bytes, int index, int end) {
        int available = Math.min(4, end - index);
        return classify(
                bytes[index] & 0xFF,
                available > 1 ? bytes[index + 1] & 0xFF : 0,
                available > 2 ? bytes[index + 2] & 0xFF : 0,
                available > 3 ? bytes[index + 3] & 0xFF : 0,
                available);
    }

    /**
     * Classifies a sequence from its first {@code available} (1 to 4) bytes, each 0..255; bytes
     * beyond {@code available} are ignored.
     */
    static int classify(int b0, int b1, int b2, int b3, int available) {
        if (b0 < 0x80) {
            return wellFormed(1);
        }
        if (b0 < 0xC2) {
            // 80..BF can only continue a sequence; C0 and C1 could only encode U+0000..U+007F.
            return b0 < 0xC0 ? illFormed(Rule.UNEXPECTED_CONTINUATION, 1) : illFormed(Rule.NON_SHORTEST_FORM, 1);
        }
        if (b0 > 0xF4) {
            // F5..F7 would encode U+140000 and above; F8..FF belong to no UTF-8 at all.
            return b0 < 0xF8 ? illFormed(Rule.OUT_OF_RANGE, 1) : illFormed(Rule.INVALID_BYTE, 1);
        }
        int sequenceLength = b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
        if (available < 2) {
            return illFormed(Rule.TRUNCATED_AT_END, 1);
        }
        if (!isContinuation(b1)) {
            return illFormed(Rule.TRUNCATED, 1);
        }
        Rule narrowed = secondByteRule(b0, b1);
        if (narrowed != null) {
            return illFormed(narrowed, 1);
        }
        if (sequenceLength == 2) {
            return wellFormed(2);
        }
        if (available < 3) {
            return illFormed(Rule.TRUNCATED_AT_END, 2);
        }
        if (!isContinuation(b2)) {
            return illFormed(Rule.TRUNCATED, 2);
        }
        if (sequenceLength == 3) {
            return wellFormed(3);
        }
        if (available < 4) {
            return illFormed(Rule.TRUNCATED_AT_END, 3);
        }
        if (!isContinuation(b3)) {
            return illFormed(Rule.TRUNCATED, 3);
        }
        return wellFormed(4);
    }

    /**
     * The rule broken by a continuation byte {@code b1} that lies outside the narrowed second-byte
     * range Table 3-7 gives the leads E0, ED, F0 and F4, or null when it lies inside.
     */
    private static Rule secondByteRule(int b0, int b1) {
        switch (b0) {
            case 0xE0:
                return b1 < 0xA0 ? Rule.NON_SHORTEST_FORM : null; // E0 80..9F would encode < U+0800
            case 0xED:
                return b1 > 0x9F ? Rule.SURROGATE : null; // ED A0..BF encodes U+D800..U+DFFF
            case 0xF0:
                return b1 < 0x90 ? Rule.NON_SHORTEST_FORM : null; // F0 80..8F would encode < U+10000
            case 0xF4:
                return b1 > 0x8F ? Rule.OUT_OF_RANGE : null; // F4 90..BF encodes > U+10FFFF
            default:
                return null;
        }
    }

    private static boolean isContinuation(int b) {
        return (b & 0xC0) == 0x80;
    }

    private static int wellFormed(int length) {
        return WELL_FORMED << 8 | length;
    }

    private static int illFormed(Rule rule, int length) {
        return (rule.ordinal() + 1) << 8 | length;
    }

    static boolean isWellFormed(int packed) {
        return packed >>> 8 == WELL_FORMED;
    }

    static int length(int packed) {
        return packed & 0xFF;
    }

    /** The rule of an ill-formed result. */
    static Rule rule(int packed) {
        return RULES[(packed >>> 8) - 1];
    }
}
