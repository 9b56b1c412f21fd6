package dev.utf8sanitiser.config;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Well-formed text that can still be unwelcome (RULES.md, "Content rules"). Checked only when
 * {@code sanitiser.content.rules} gives the rule an action other than {@code allow}. The names are
 * a public contract, like the well-formedness rules: they appear in dead-letter headers and
 * metrics.
 */
public enum ContentRule {
    /** U+0000. */
    NUL("U+0000"),
    /** U+0001..U+001F except TAB, LF and CR. */
    C0_CONTROL("U+0001..U+001F except TAB, LF, CR"),
    /** U+0080..U+009F. */
    C1_CONTROL("U+0080..U+009F"),
    /** U+FDD0..U+FDEF and the last two code points of every plane, U+xxFFFE and U+xxFFFF. */
    NONCHARACTER("U+FDD0..U+FDEF, U+xxFFFE, U+xxFFFF"),
    /** U+FEFF at offset 0. */
    BYTE_ORDER_MARK("U+FEFF at offset 0"),
    /** The private use code points: U+E000..U+F8FF and planes 15 and 16 less their noncharacters. */
    PRIVATE_USE("U+E000..U+F8FF, U+F0000..U+FFFFD, U+100000..U+10FFFD"),
    /** U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR. */
    LINE_SEPARATOR("U+2028, U+2029"),
    /** U+000D. */
    CR("U+000D"),
    /**
     * Text not in the normalisation form of {@code sanitiser.normalisation} (NFC when that is {@code
     * none}). Detection only: it takes {@code allow} or {@code reject}, because bringing text into a
     * form is {@code sanitiser.normalisation}'s job.
     */
    NOT_NORMALISED("text not in the configured normalisation form", ContentAction.ALLOW, ContentAction.REJECT);

    private final String description;
    private final Set<ContentAction> actions;

    ContentRule(String description) {
        this.description = description;
        this.actions = EnumSet.allOf(ContentAction.class);
    }

    ContentRule(String description, ContentAction first, ContentAction... rest) {
        this.description = description;
        this.actions = EnumSet.of(first, rest);
    }

    /** One line for humans: what the rule matches, {@code "U+0080..U+009F"}. */
    public String description() {
        return description;
    }

    /** The actions this rule accepts. */
    public Set<ContentAction> actions() {
        return EnumSet.copyOf(actions);
    }

    /** Whether this rule accepts {@code action}. */
    public boolean accepts(ContentAction action) {
        return actions.contains(action);
    }

    /** The rule with this name, ignoring case. */
    public static Optional<ContentRule> fromConfigName(String name) {
        for (ContentRule rule : values()) {
            if (rule.name().equalsIgnoreCase(name)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }
}
