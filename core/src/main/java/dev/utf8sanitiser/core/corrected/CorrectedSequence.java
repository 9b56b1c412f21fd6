package dev.utf8sanitiser.core.corrected;

/**
 * The table of the Corrected UTF-8 proposal ("Putting it all together", quoted in {@link CorrectedUtf8}) in code: the
 * encoding of one code point, and the classification of the sequence that starts at one byte.
 * Every other class of the codec goes through these methods.
 *
 * <p>A sequence of n bytes is the RFC 2044 form: a lead byte with n leading 1 bits (n = 2..6) and
 * n - 1 continuation bytes {@code 10xxxxxx}; its payload bits, read as an unsigned number, plus the
 * offset of its row, are the code point. Each row starts where the one before it ends, except for
 * the two skipped ranges, so every sequence encodes exactly one code point and no code point has two
 * encodings. The 3-byte rows are split where the surrogates U+D800..U+DFFF are skipped: the payload
 * {@code 0xCF60} ({@code EC BD A0}) is U+E000, not U+D800, and 4 256 - 2 208 = 2 048 is the size of
 * the surrogate range.
 *
 * <p>The highest code point, U+8421109F, does not fit in a Java {@code int}, so code points are
 * {@code long}s. Classification results are packed in a {@code long} so the loops that call it
 * allocate nothing: bits 0..31 hold the code point of a complete sequence, bits 32..39 the length
 * in bytes, bits 40..47 zero for a complete sequence or {@code rule.ordinal() + 1}.
 */
final class CorrectedSequence {
    private CorrectedSequence() {}

    /** The highest code point of the table's last row. */
    static final long MAX_CODE_POINT = 0x8421_109FL;

    // The offsets of the table's rows; each but the upper 3-byte one is its row's first code point.
    static final int OFFSET_2 = 160; // 0xA0: skips the C1 controls U+0080..U+009F
    static final int OFFSET_3 = 2_208; // 0x8A0
    static final int OFFSET_3_ABOVE_SURROGATES = 4_256; // 0x10A0 = OFFSET_3 + 2048 surrogates
    static final int OFFSET_4 = 69_792; // 0x110A0
    static final int OFFSET_5 = 2_166_944; // 0x2110A0
    static final int OFFSET_6 = 69_275_808; // 0x42110A0

    /** The first 3-byte payload above the surrogates: {@code EC BD A0}, U+E000 - OFFSET_3_ABOVE_SURROGATES. */
    static final int THREE_BYTE_SPLIT = 0xE000 - OFFSET_3_ABOVE_SURROGATES;

    private static final CorrectedRule[] RULES = CorrectedRule.values();
    private static final int COMPLETE = 0;

    /**
     * Whether the table encodes {@code codePoint}: U+0000..U+8421109F except the C1 controls
     * U+0080..U+009F and the surrogates U+D800..U+DFFF, which the proposal does "not encode".
     */
    static boolean isEncodable(long codePoint) {
        return codePoint >= 0
                && codePoint <= MAX_CODE_POINT
                && (codePoint < 0x80 || codePoint >= OFFSET_2)
                && (codePoint < 0xD800 || codePoint > 0xDFFF);
    }

    /** The length of the encoding of an encodable code point: its row in the table. */
    static int encodedLength(long codePoint) {
        if (codePoint < 0x80) {
            return 1;
        }
        if (codePoint < OFFSET_3) {
            return 2;
        }
        if (codePoint < OFFSET_4) {
            return 3;
        }
        if (codePoint < OFFSET_5) {
            return 4;
        }
        return codePoint < OFFSET_6 ? 5 : 6;
    }

    /**
     * Writes the encoding of an encodable code point at {@code destination[offset]}, which has room
     * for it, and returns its length.
     */
    static int encode(long codePoint, byte[] destination, int offset) {
        if (codePoint < 0x80) {
            destination[offset] = (byte) codePoint;
            return 1;
        }
        int length = encodedLength(codePoint);
        long payload = codePoint - offsetOf(length, codePoint);
        for (int k = length - 1; k > 0; k--) {
            destination[offset + k] = (byte) (0x80 | (payload & 0x3F));
            payload >>>= 6;
        }
        // n leading 1 bits, a 0, then what is left of the payload (it fits, by the table's ranges).
        destination[offset] = (byte) (0xFF00 >>> length | payload);
        return length;
    }

    /** The offset of the row of an encodable code point of {@code length} bytes. */
    private static long offsetOf(int length, long codePoint) {
        return switch (length) {
            case 2 -> OFFSET_2;
            case 3 -> codePoint < 0xD800 ? OFFSET_3 : OFFSET_3_ABOVE_SURROGATES;
            case 4 -> OFFSET_4;
            case 5 -> OFFSET_5;
            default -> OFFSET_6;
        };
    }

    /**
     * Classifies the sequence at {@code bytes[index]}; {@code index < end}. Completeness comes first:
     * only a complete sequence has a code point. For a reserved sequence the result covers only the
     * lead byte; {@link #reservedEnd} finds its extent.
     */
    static long at(byte[] bytes, int index, int end) {
        int lead = bytes[index] & 0xFF;
        if (lead < 0x80) {
            return complete(1, lead);
        }
        if (lead < 0xC0) {
            return problem(CorrectedRule.UNEXPECTED_CONTINUATION, 1);
        }
        if (lead >= 0xFE) {
            return problem(CorrectedRule.RESERVED_SEQUENCE, 1);
        }
        int length = lengthOfLead(lead);
        long payload = lead & (0x7F >>> length);
        for (int k = 1; k < length; k++) {
            if (index + k == end) {
                return problem(CorrectedRule.TRUNCATED_AT_END, k);
            }
            int b = bytes[index + k] & 0xFF;
            if (!isContinuation(b)) {
                return problem(CorrectedRule.TRUNCATED, k);
            }
            payload = payload << 6 | (b & 0x3F);
        }
        return complete(length, payload + offsetOfPayload(length, payload));
    }

    private static long offsetOfPayload(int length, long payload) {
        return switch (length) {
            case 2 -> OFFSET_2;
            case 3 -> payload < THREE_BYTE_SPLIT ? OFFSET_3 : OFFSET_3_ABOVE_SURROGATES;
            case 4 -> OFFSET_4;
            case 5 -> OFFSET_5;
            default -> OFFSET_6;
        };
    }

    /** The length of the sequence a lead byte C0..FD starts: RFC 2044's count of its leading 1 bits. */
    static int lengthOfLead(int lead) {
        return Integer.numberOfLeadingZeros(~(lead << 24));
    }

    /**
     * The end of the reserved sequence led by {@code bytes[index]} (FE or FF): the index of the next
     * byte 00..7F or C0..FD, or {@code end}. The proposal's "next recognized lead byte" is read as a byte
     * that starts a sequence this version of the table defines; FE and FF do not, so they extend the
     * reserved sequence just as continuation bytes do. This keeps a future sequence whose length
     * prefix runs on through several FF bytes in one piece.
     */
    static int reservedEnd(byte[] bytes, int index, int end) {
        int i = index + 1;
        while (i < end && continuesReserved(bytes[i] & 0xFF)) {
            i++;
        }
        return i;
    }

    /** Whether a byte extends a reserved sequence: 80..BF, FE or FF. */
    static boolean continuesReserved(int b) {
        return isContinuation(b) || b >= 0xFE;
    }

    static boolean isContinuation(int b) {
        return (b & 0xC0) == 0x80;
    }

    private static long complete(int length, long codePoint) {
        return (long) length << 32 | codePoint;
    }

    private static long problem(CorrectedRule rule, int length) {
        return (long) (rule.ordinal() + 1) << 40 | (long) length << 32;
    }

    static boolean isComplete(long packed) {
        return packed >>> 40 == COMPLETE;
    }

    static int length(long packed) {
        return (int) (packed >>> 32) & 0xFF;
    }

    static long codePoint(long packed) {
        return packed & 0xFFFF_FFFFL;
    }

    static CorrectedRule rule(long packed) {
        return RULES[(int) (packed >>> 40) - 1];
    }
}
