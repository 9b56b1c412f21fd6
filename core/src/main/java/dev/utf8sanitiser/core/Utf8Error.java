package dev.utf8sanitiser.core;

import java.util.Objects;

/**
 * One ill-formed place in checked bytes.
 *
 * @param offset the byte index, from 0, where the ill-formed subsequence starts in the checked bytes
 * @param length the length of its maximal subpart (Unicode §3.9, D93b), 1 to 3; replacement emits
 *     one U+FFFD for each error, so errors and replaced output always agree
 * @param rule why it is ill-formed
 */
public record Utf8Error(long offset, int length, Rule rule) {
    public Utf8Error {
        if (offset < 0) {
            throw new IllegalArgumentException("offset < 0: " + offset);
        }
        if (length < 1 || length > 3) {
            throw new IllegalArgumentException("length not in 1..3: " + length);
        }
        Objects.requireNonNull(rule, "rule");
    }

    @Override
    public String toString() {
        return "(" + offset + "," + length + "," + rule + ")";
    }
}
