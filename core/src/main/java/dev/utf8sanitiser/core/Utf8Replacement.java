package dev.utf8sanitiser.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * Replaces each ill-formed maximal subpart with U+FFFD ({@code EF BF BD}): the practice Unicode
 * §3.9 recommends ("U+FFFD Substitution of Maximal Subparts") and the WHATWG Encoding Standard
 * requires. One U+FFFD for each error {@link Utf8Validator#errors} reports, so errors and output
 * always agree.
 *
 * <p>Not the JDK decoder's behaviour: it turns an encoded surrogate {@code ED A0 80} into one
 * U+FFFD, where maximal subparts give three.
 */
public final class Utf8Replacement {
    /** U+FFFD REPLACEMENT CHARACTER in UTF-8. */
    static final byte[] REPLACEMENT_CHARACTER = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    private Utf8Replacement() {}

    /** The input itself when it is well-formed (no copy), otherwise a replaced copy. */
    public static byte[] replace(byte[] bytes) {
        return replace(bytes, 0, bytes.length);
    }

    /**
     * {@code bytes[offset, offset + length)} with every ill-formed maximal subpart replaced. When
     * the range is well-formed and covers the whole array, the array itself is returned.
     */
    public static byte[] replace(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        int to = offset + length;
        int firstBad = Utf8Validator.validPrefixEnd(bytes, offset, to);
        if (firstBad == to) {
            return offset == 0 && length == bytes.length ? bytes : Arrays.copyOfRange(bytes, offset, to);
        }
        // At most one 3-byte U+FFFD per input byte: the output is never longer than 3 * length.
        byte[] out = new byte[Math.addExact(length, 2 * Math.min(length, 64))];
        int written = 0;
        int i = offset;
        int end = firstBad;
        while (true) {
            int good = end - i;
            out = ensureCapacity(out, written + good + REPLACEMENT_CHARACTER.length);
            System.arraycopy(bytes, i, out, written, good);
            written += good;
            if (end == to) {
                break;
            }
            System.arraycopy(REPLACEMENT_CHARACTER, 0, out, written, REPLACEMENT_CHARACTER.length);
            written += REPLACEMENT_CHARACTER.length;
            i = end + MaximalSubpart.length(MaximalSubpart.at(bytes, end, to));
            end = Utf8Validator.validPrefixEnd(bytes, i, to);
        }
        return Arrays.copyOf(out, written);
    }

    private static byte[] ensureCapacity(byte[] out, int needed) {
        return needed <= out.length ? out : Arrays.copyOf(out, Math.max(needed, out.length * 2));
    }
}
