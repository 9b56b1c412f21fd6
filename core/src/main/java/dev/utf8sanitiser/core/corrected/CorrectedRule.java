package dev.utf8sanitiser.core.corrected;

import dev.utf8sanitiser.core.Rule;

/**
 * Why bytes cannot be decoded as Corrected UTF-8, or cannot cross between standard UTF-8 and
 * Corrected UTF-8 (docs/corrected-utf8.md). The names are a public contract like
 * {@link Rule}'s: the CLI prints {@code NAME:OFFSET: RULE description}.
 *
 * <p>One name means one thing in both directions. The seven names of {@link Rule} keep their
 * meaning and description: ill-formed standard UTF-8 met by encoding gets exactly the rule {@link
 * dev.utf8sanitiser.core.Utf8Validator} gives it. Ill-formed Corrected UTF-8 can go wrong in only
 * three of those ways, because every complete Corrected sequence is the unique encoding of one
 * code point (the proposal makes overlong forms "impossible instead of just forbidden"): a stray
 * continuation byte, or a sequence cut short by a byte or by the end. Those keep the UTF-8 names,
 * whose descriptions do not depend on the encoding. Two names are new: {@link #C1_CONTROL} (also a
 * content rule of docs/content-rules.md) and {@link #RESERVED_SEQUENCE}.
 */
public enum CorrectedRule {
    /** Both directions: a continuation byte 80..BF where a sequence must start. */
    UNEXPECTED_CONTINUATION(Rule.UNEXPECTED_CONTINUATION),
    /** Encode only: an overlong standard UTF-8 sequence (Corrected UTF-8 has none). */
    NON_SHORTEST_FORM(Rule.NON_SHORTEST_FORM),
    /** Encode only: a surrogate encoded in standard UTF-8 (Corrected UTF-8 cannot encode one). */
    SURROGATE(Rule.SURROGATE),
    /**
     * Both directions: a code point above U+10FFFF. Encoding meets it as ill-formed standard UTF-8
     * (lead F4 with 90..BF, or F5..F7); decoding meets it as a complete Corrected sequence whose
     * code point (up to U+8421109F) standard UTF-8 cannot encode.
     */
    OUT_OF_RANGE(Rule.OUT_OF_RANGE),
    /** Encode only: a byte F8..FF, never used in standard UTF-8. */
    INVALID_BYTE(Rule.INVALID_BYTE),
    /** Both directions: a valid prefix cut short by a byte that cannot continue it. */
    TRUNCATED(Rule.TRUNCATED),
    /** Both directions: a valid prefix cut short by the end of the input. */
    TRUNCATED_AT_END(Rule.TRUNCATED_AT_END),
    /**
     * Encode only: a C1 control, U+0080..U+009F. The proposal: "Corrected UTF-8 skips over them
     * entirely; this is why the offset for two-byte sequences is 160 rather than 128."
     */
    C1_CONTROL("C1 control (U+0080..U+009F), which Corrected UTF-8 does not encode"),
    /**
     * Decode only: a sequence led by FE or FF. The proposal: decoders "MUST treat sequences beginning
     * with FE or FF as reserved for future use and as extending until the next recognized lead
     * byte, rather than as invalid". It is not ill-formed, but no code point can be decoded from it.
     */
    RESERVED_SEQUENCE("sequence led by FE or FF, reserved for future use by Corrected UTF-8");

    private final String description;

    CorrectedRule(Rule sameRule) {
        this.description = sameRule.description();
    }

    CorrectedRule(String description) {
        this.description = description;
    }

    /** One line, lower case, for humans: {@code "code point above U+10FFFF"}. */
    public String description() {
        return description;
    }

    /** The rule of the same name: ill-formed standard UTF-8 keeps its rule across the codec. */
    public static CorrectedRule of(Rule rule) {
        // A switch expression, so a new Rule does not compile until it is mapped here.
        return switch (rule) {
            case UNEXPECTED_CONTINUATION -> UNEXPECTED_CONTINUATION;
            case NON_SHORTEST_FORM -> NON_SHORTEST_FORM;
            case SURROGATE -> SURROGATE;
            case OUT_OF_RANGE -> OUT_OF_RANGE;
            case INVALID_BYTE -> INVALID_BYTE;
            case TRUNCATED -> TRUNCATED;
            case TRUNCATED_AT_END -> TRUNCATED_AT_END;
        };
    }
}
