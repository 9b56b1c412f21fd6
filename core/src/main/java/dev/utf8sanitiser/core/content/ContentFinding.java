package dev.utf8sanitiser.core.content;

import java.util.Objects;

/**
 * One place where a {@link ContentRule} matched and its action was not {@link ContentAction#ALLOW}.
 *
 * @param offset the byte index, from 0, in the <em>input</em> where the match starts
 * @param length its length in input bytes, at least 1: the UTF-8 length of the code point (1 to
 *     4; a CR is 1 even when REPLACE drops it from a CRLF), or for {@link
 *     ContentRule#NOT_NORMALISED} the bytes from the first to the last character that
 *     normalisation rewrites
 * @param rule the rule that matched
 * @param action what was done: {@link ContentAction#REJECT}, {@link ContentAction#STRIP} or {@link
 *     ContentAction#REPLACE}
 */
public record ContentFinding(long offset, int length, ContentRule rule, ContentAction action) {
    public ContentFinding {
        if (offset < 0) {
            throw new IllegalArgumentException("offset < 0: " + offset);
        }
        if (length < 1) {
            throw new IllegalArgumentException("length < 1: " + length);
        }
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(action, "action");
        if (action == ContentAction.ALLOW || !rule.accepts(action)) {
            throw new IllegalArgumentException(rule + " cannot be found with action " + action);
        }
    }

    @Override
    public String toString() {
        return "(" + offset + "," + length + "," + rule + "," + action + ")";
    }
}
