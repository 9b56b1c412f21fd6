package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.content.ContentFinding;
import dev.utf8sanitiser.core.content.ContentRule;

/**
 * One line of a {@code check} report: an ill-formed place (one of the seven UTF-8 rules) or, with
 * {@code --content-rules}, a content finding. Both print as {@code NAME:OFFSET:LENGTH: RULE
 * description}.
 *
 * @param code the rule: a {@link Rule} ordinal, or {@link #CONTENT} plus a {@link ContentRule}
 *     ordinal (a small number, so the spool stores it in a byte)
 */
record Problem(long offset, int length, int code) {
    static final int CONTENT = 64;
    private static final Rule[] RULES = Rule.values();
    private static final ContentRule[] CONTENT_RULES = ContentRule.values();

    static Problem of(Utf8Error error) {
        return new Problem(error.offset(), error.length(), error.rule().ordinal());
    }

    static Problem of(ContentFinding finding, long shift) {
        return new Problem(
                finding.offset() + shift,
                finding.length(),
                CONTENT + finding.rule().ordinal());
    }

    boolean isContent() {
        return code >= CONTENT;
    }

    String rule() {
        return isContent() ? CONTENT_RULES[code - CONTENT].name() : RULES[code].name();
    }

    String description() {
        return isContent() ? CONTENT_RULES[code - CONTENT].description() : RULES[code].description();
    }
}
