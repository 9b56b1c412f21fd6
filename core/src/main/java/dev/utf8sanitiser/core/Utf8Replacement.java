package dev.utf8sanitiser.core;

/**
 * Replaces each ill-formed maximal subpart with U+FFFD ({@code EF BF BD}): the practice Unicode
 * §3.9 recommends ("U+FFFD Substitution of Maximal Subparts") and the WHATWG Encoding Standard
 * requires. One U+FFFD for each error {@link Utf8Validator#errors} reports, so errors and output
 * always agree. A shorthand for {@link Utf8Sanitiser} with {@link Policy#REPLACE}.
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
        return Utf8Sanitiser.sanitise(bytes, offset, length, Policy.REPLACE, 0).output(); // no report: output only
    }
}
