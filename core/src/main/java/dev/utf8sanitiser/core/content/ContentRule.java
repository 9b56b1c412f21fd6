package dev.utf8sanitiser.core.content;

/**
 * Well-formed text that can still be unwelcome (docs/content-rules.md). Unlike the
 * well-formedness {@link dev.utf8sanitiser.core.Rule rules}, each is checked only when configured
 * with an action other than {@link ContentAction#ALLOW}. The names are a public contract: they
 * appear in configuration, dead-letter headers and metrics, so they never change once released.
 *
 * <p>The code point sets are disjoint, so a code point matches at most one rule. The Corrected
 * UTF-8 proposal (docs/corrected-utf8.md) motivates most of them: it does not encode the C1 controls, forbids
 * U+0000, and asks for U+000A as the only line terminator (no U+000D, U+2028, U+2029).
 */
public enum ContentRule {
    /** U+0000: the C string terminator, the classic truncation trick. */
    NUL("U+0000"),
    /**
     * U+0001..U+001F except U+0009 TAB, U+000A LF and U+000D CR (CR has its own rule): the C0
     * controls (Unicode §23.1) that have no place in text.
     */
    C0_CONTROL("U+0001..U+001F except TAB, LF, CR"),
    /**
     * U+0080..U+009F, the C1 controls (Unicode §23.1): almost always Windows-1252 or Latin-1 text
     * decoded with the wrong charset.
     */
    C1_CONTROL("U+0080..U+009F"),
    /**
     * The 66 noncharacters (Unicode §23.7, definition D14): U+FDD0..U+FDEF and the last two code
     * points of each of the 17 planes, U+xxFFFE and U+xxFFFF. Permanently reserved for internal
     * use; they should not be interchanged.
     */
    NONCHARACTER("U+FDD0..U+FDEF, U+xxFFFE, U+xxFFFF"),
    /**
     * U+FEFF at offset 0 only: a byte order mark (Unicode §23.8), which UTF-8 does not need.
     * Elsewhere U+FEFF is ZERO WIDTH NO-BREAK SPACE and is not matched.
     */
    BYTE_ORDER_MARK("U+FEFF at offset 0"),
    /**
     * The private use code points (Unicode §23.5, General_Category Co): U+E000..U+F8FF, and planes
     * 15 and 16 less their noncharacters, U+F0000..U+FFFFD and U+100000..U+10FFFD. Their meaning
     * is a private agreement the receiver is not party to.
     */
    PRIVATE_USE("U+E000..U+F8FF, U+F0000..U+FFFFD, U+100000..U+10FFFD"),
    /** U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR (Unicode §5.8): line ends that are not LF. */
    LINE_SEPARATOR("U+2028, U+2029"),
    /** U+000D CARRIAGE RETURN, alone or in CRLF: a line end that is not LF (Unicode §5.8). */
    CR("U+000D"),
    /**
     * Text not in the normalisation form the policy names (Unicode Standard Annex #15); NFC when
     * the policy's normalisation is {@link Normalisation#NONE}. A property of the text, not of one
     * code point: its finding spans the bytes that normalisation rewrites.
     */
    NOT_NORMALISED("text not in the configured normalisation form");

    private final String description;

    ContentRule(String description) {
        this.description = description;
    }

    /** One line for humans: what the rule matches, {@code "U+0080..U+009F"}. */
    public String description() {
        return description;
    }

    /** Whether {@code action} means something for this rule: every action but STRIP for NOT_NORMALISED. */
    public boolean accepts(ContentAction action) {
        return !(this == NOT_NORMALISED && action == ContentAction.STRIP);
    }
}
