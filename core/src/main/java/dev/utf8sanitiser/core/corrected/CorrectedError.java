package dev.utf8sanitiser.core.corrected;

import java.util.Objects;

/**
 * One place in bytes checked as Corrected UTF-8 where no code point can be decoded.
 *
 * @param offset the byte index, from 0, where the sequence starts in the checked bytes
 * @param length how many bytes it covers: 1 for a stray continuation byte; the lead byte and the
 *     continuation bytes present (1 to 5) for a truncated sequence; the whole extent of a reserved
 *     sequence (see {@link CorrectedUtf8#errors(byte[])})
 * @param rule {@link CorrectedRule#UNEXPECTED_CONTINUATION}, {@link CorrectedRule#TRUNCATED},
 *     {@link CorrectedRule#TRUNCATED_AT_END} or {@link CorrectedRule#RESERVED_SEQUENCE}
 */
public record CorrectedError(long offset, int length, CorrectedRule rule) {
    public CorrectedError {
        if (offset < 0) {
            throw new IllegalArgumentException("offset < 0: " + offset);
        }
        if (length < 1) {
            throw new IllegalArgumentException("length < 1: " + length);
        }
        Objects.requireNonNull(rule, "rule");
    }

    @Override
    public String toString() {
        return "(" + offset + "," + length + "," + rule + ")";
    }
}
