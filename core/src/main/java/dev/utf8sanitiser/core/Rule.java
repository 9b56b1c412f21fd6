package dev.utf8sanitiser.core;

/**
 * Why a byte sequence is ill-formed UTF-8. The names are a public contract (CLI output, dead-letter
 * headers, metrics): they never change once released.
 *
 * <p>Well-formed UTF-8 is exactly Table 3-7 of the Unicode Standard; every byte sequence outside it
 * falls under exactly one of these rules, decided at the first byte of its maximal subpart.
 */
public enum Rule {
    /** A continuation byte 80..BF where a sequence must start. */
    UNEXPECTED_CONTINUATION("continuation byte where a sequence must start"),
    /** Lead C0 or C1; E0 followed by 80..9F; F0 followed by 80..8F: an overlong encoding. */
    NON_SHORTEST_FORM("overlong (non-shortest form) encoding"),
    /** ED followed by A0..BF: a UTF-16 surrogate (U+D800..U+DFFF) encoded directly, as CESU-8 does. */
    SURROGATE("encoded surrogate code point (U+D800..U+DFFF)"),
    /** F4 followed by 90..BF, or lead F5..F7: a code point above U+10FFFF. */
    OUT_OF_RANGE("code point above U+10FFFF"),
    /** Lead F8..FF: the obsolete 5- and 6-byte forms and bytes never used by UTF-8. */
    INVALID_BYTE("byte never used in UTF-8"),
    /** A valid prefix cut short by a byte that cannot continue it. */
    TRUNCATED("sequence cut short by a byte that cannot continue it"),
    /** A valid prefix cut short by the end of the input. */
    TRUNCATED_AT_END("sequence cut short by the end of the input");

    private final String description;

    Rule(String description) {
        this.description = description;
    }

    /** One line, lower case, for humans: {@code "overlong (non-shortest form) encoding"}. */
    public String description() {
        return description;
    }
}
