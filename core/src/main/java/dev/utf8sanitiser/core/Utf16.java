package dev.utf8sanitiser.core;

/**
 * The UTF-8 rules for a Java {@code String}, for hosts that get text already decoded (a Kafka
 * Connect converter's {@code String}): the only trace of ill-formed input left is a lone surrogate, a high surrogate (U+D800..U+DBFF) not
 * followed by a low one (U+DC00..U+DFFF), or a low one not preceded by a high one. Such a string has
 * no UTF-8 form (Unicode §3.9, D92); Java's encoders write {@code ?} for it, and CESU-8 or Modified
 * UTF-8 writers the three bytes {@code ED A0..BF 80..BF}, which docs/rules.md calls {@code SURROGATE}.
 *
 * <p>Each lone surrogate is the error {@code SURROGATE} of length 1 (the lead byte {@code ED} is the
 * maximal subpart of {@code ED A0..BF 80..BF}, Unicode §3.9, D93b) at the byte offset those three
 * bytes would have, every other character counted in its UTF-8 length: what {@link Utf8Validator}
 * reports for the bytes of {@link #generalisedUtf8}. Under {@code replace} or {@code repair} each
 * becomes one U+FFFD: one code unit, one replacement, as WHATWG's conversion of a JavaScript string
 * to a USVString does.
 */
public final class Utf16 {
    /** U+FFFD REPLACEMENT CHARACTER. */
    public static final char REPLACEMENT = '\uFFFD';

    /** The bytes of a lone surrogate in {@link #generalisedUtf8}: what a context shows of one. */
    public static final int SURROGATE_BYTES = 3;

    private Utf16() {}

    /**
     * Reports each lone surrogate of {@code s}, in order, as the {@code SURROGATE} error its
     * three-byte form is in {@link #generalisedUtf8}.
     *
     * @return how many there were
     */
    public static int forEachLoneSurrogate(String s, Utf8ErrorListener listener) {
        int count = 0;
        long offset = 0;
        int counted = 0;
        for (int lone = firstLoneSurrogate(s); lone >= 0; lone = nextLoneSurrogate(s, lone + 1)) {
            offset += utf8Length(s, counted, lone);
            counted = lone;
            listener.onError(new Utf8Error(offset, 1, Rule.SURROGATE));
            count++;
        }
        return count;
    }

    /** The index of the first lone surrogate in {@code s}, or -1 when there is none. */
    public static int firstLoneSurrogate(String s) {
        return nextLoneSurrogate(s, 0);
    }

    /** The index of the first lone surrogate at or after {@code from}, or -1. */
    public static int nextLoneSurrogate(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++; // a pair: one supplementary character
                } else {
                    return i;
                }
            }
        }
        return -1;
    }

    /**
     * {@code s} in UTF-8, each lone surrogate in the three-byte form CESU-8 writes for it ({@code
     * ED A0 80} for U+D800): the bytes an operator sees in {@code __utf8.context}.
     */
    public static byte[] generalisedUtf8(String s) {
        byte[] out = new byte[utf8Length(s, 0, s.length())];
        int at = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int cp = c;
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                cp = Character.toCodePoint(c, s.charAt(++i));
            }
            if (cp < 0x80) {
                out[at++] = (byte) cp;
            } else if (cp < 0x800) {
                out[at++] = (byte) (0xC0 | cp >> 6);
                out[at++] = (byte) (0x80 | cp & 0x3F);
            } else if (cp < 0x10000) {
                out[at++] = (byte) (0xE0 | cp >> 12);
                out[at++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | cp & 0x3F);
            } else {
                out[at++] = (byte) (0xF0 | cp >> 18);
                out[at++] = (byte) (0x80 | cp >> 12 & 0x3F);
                out[at++] = (byte) (0x80 | cp >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | cp & 0x3F);
            }
        }
        return out;
    }

    /**
     * The length in bytes of {@code s[from, to)} in {@link #generalisedUtf8}. Neither end may split a
     * surrogate pair.
     */
    public static int utf8Length(String s, int from, int to) {
        int length = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                length += 3; // the BMP beyond U+07FF, and a lone surrogate's three-byte form
            }
        }
        return length;
    }

    /** {@code s} with each lone surrogate replaced by U+FFFD. */
    public static String replaceLoneSurrogates(String s) {
        int at = firstLoneSurrogate(s);
        if (at < 0) {
            return s;
        }
        char[] chars = s.toCharArray();
        while (at >= 0) {
            chars[at] = REPLACEMENT;
            at = nextLoneSurrogate(s, at + 1);
        }
        return new String(chars);
    }
}
