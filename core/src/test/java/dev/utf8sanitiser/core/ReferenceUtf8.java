package dev.utf8sanitiser.core;

import java.util.ArrayList;
import java.util.List;

/**
 * An independent oracle, written from the text of Table 3-7 and §3.9 D93b rather than from the
 * production code: a sequence is well-formed when it matches a row of the table byte for byte,
 * and the maximal subpart at a position is the longest run of bytes that is a prefix of some row.
 * Slow and obvious on purpose.
 */
final class ReferenceUtf8 {
    private ReferenceUtf8() {}

    /** Table 3-7: each row is the inclusive [low, high] range of each byte. */
    private static final int[][][] TABLE_3_7 = {
        {{0x00, 0x7F}},
        {{0xC2, 0xDF}, {0x80, 0xBF}},
        {{0xE0, 0xE0}, {0xA0, 0xBF}, {0x80, 0xBF}},
        {{0xE1, 0xEC}, {0x80, 0xBF}, {0x80, 0xBF}},
        {{0xED, 0xED}, {0x80, 0x9F}, {0x80, 0xBF}},
        {{0xEE, 0xEF}, {0x80, 0xBF}, {0x80, 0xBF}},
        {{0xF0, 0xF0}, {0x90, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}},
        {{0xF1, 0xF3}, {0x80, 0xBF}, {0x80, 0xBF}, {0x80, 0xBF}},
        {{0xF4, 0xF4}, {0x80, 0x8F}, {0x80, 0xBF}, {0x80, 0xBF}},
    };

    /** How many bytes from {@code i} match {@code row} before the first mismatch or the end. */
    private static int matching(byte[] b, int i, int[][] row) {
        int k = 0;
        while (k < row.length && i + k < b.length) {
            int v = b[i + k] & 0xFF;
            if (v < row[k][0] || v > row[k][1]) {
                break;
            }
            k++;
        }
        return k;
    }

    static List<Utf8Error> errors(byte[] b) {
        List<Utf8Error> errors = new ArrayList<>();
        int i = 0;
        while (i < b.length) {
            int longestPrefix = 0;
            int wellFormedLength = 0;
            for (int[][] row : TABLE_3_7) {
                int k = matching(b, i, row);
                if (k == row.length) {
                    wellFormedLength = k;
                }
                longestPrefix = Math.max(longestPrefix, k);
            }
            if (wellFormedLength > 0) {
                i += wellFormedLength;
                continue;
            }
            int length = Math.max(1, longestPrefix);
            errors.add(new Utf8Error(i, length, ruleFor(b, i, longestPrefix)));
            i += length;
        }
        return errors;
    }

    /** The rule, from the "where it fires" column of docs/rules.md. */
    private static Rule ruleFor(byte[] b, int i, int prefix) {
        int lead = b[i] & 0xFF;
        if (prefix == 0) {
            if (lead >= 0x80 && lead <= 0xBF) return Rule.UNEXPECTED_CONTINUATION;
            if (lead == 0xC0 || lead == 0xC1) return Rule.NON_SHORTEST_FORM;
            if (lead >= 0xF5 && lead <= 0xF7) return Rule.OUT_OF_RANGE;
            if (lead >= 0xF8) return Rule.INVALID_BYTE;
            throw new AssertionError("a lead that starts a row matched no byte: " + lead);
        }
        if (i + prefix == b.length) {
            return Rule.TRUNCATED_AT_END;
        }
        int next = b[i + prefix] & 0xFF;
        boolean continuation = next >= 0x80 && next <= 0xBF;
        if (prefix == 1 && continuation) {
            // A continuation byte, yet no row continues: the lead's second byte is narrowed.
            if (lead == 0xE0 || lead == 0xF0) return Rule.NON_SHORTEST_FORM;
            if (lead == 0xED) return Rule.SURROGATE;
            if (lead == 0xF4) return Rule.OUT_OF_RANGE;
            throw new AssertionError("continuation refused after an unnarrowed lead: " + lead);
        }
        return Rule.TRUNCATED;
    }

    /**
     * Where the first ill-formed or incomplete sequence at or after {@code from} starts, {@code
     * b.length} when there is none: the answer of {@code Utf8Validator.validPrefixEnd}.
     */
    static int validPrefixEnd(byte[] b, int from) {
        int i = from;
        while (i < b.length) {
            int wellFormedLength = 0;
            for (int[][] row : TABLE_3_7) {
                if (matching(b, i, row) == row.length) {
                    wellFormedLength = row.length;
                }
            }
            if (wellFormedLength == 0) {
                return i;
            }
            i += wellFormedLength;
        }
        return i;
    }

    static boolean isWellFormed(byte[] b) {
        return errors(b).isEmpty();
    }
}
