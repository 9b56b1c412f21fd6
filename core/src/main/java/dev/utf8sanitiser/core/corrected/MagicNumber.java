package dev.utf8sanitiser.core.corrected;

/**
 * Whether a transcoding deals with the magic number {@code EF B7 9D ED B2 AE 00 0A} of the Corrected UTF-8 proposal:
 * "It SHOULD be present at the beginning of any file encoded in Corrected UTF-8, but need not be
 * prepended to strings whose encoding is known by other means. Like byte order marks in UTF-16,
 * when it appears at the beginning of a file, it should not be considered part of the text."
 */
public enum MagicNumber {
    /**
     * For strings whose encoding is known by other means: encoding writes no magic number, and
     * decoding treats leading magic-number bytes as text (U+10E7D U+ED4E U+0000 U+000A).
     */
    NONE,
    /**
     * For files: encoding writes the magic number before the text; decoding drops a magic number at
     * the start of the input, and decodes input without one as usual. Offsets still count the
     * dropped bytes, because they point into the input.
     */
    LEADING
}
