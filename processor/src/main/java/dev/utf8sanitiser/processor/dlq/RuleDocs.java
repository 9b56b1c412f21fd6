package dev.utf8sanitiser.processor.dlq;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/** Where the documentation explains a rule a dead letter names, for the operator reading it. */
public final class RuleDocs {
    /** Where the documentation is published, for a link from a page. */
    public static final String PUBLISHED = "https://github.com/utf8-sanitiser/utf8-sanitiser/blob/main/";

    /**
     * The rules of the Connect transformation's walk over a value (connect's {@code ValueChecker}),
     * which this module does not depend on.
     */
    private static final Set<String> CONNECT_VALUE_RULES = Set.of("NESTED_TOO_DEEP", "CYCLIC_VALUE");

    private RuleDocs() {}

    /**
     * What the rule means, in words: the UTF-8 rule's or content rule's own description, or for
     * another rule (size, payload format), empty: the record's message says it.
     */
    public static Optional<String> description(String rule) {
        for (Rule r : Rule.values()) {
            if (r.name().equals(rule)) {
                return Optional.of(r.description());
            }
        }
        for (ContentRule r : ContentRule.values()) {
            if (r.name().equals(rule)) {
                return Optional.of(r.description());
            }
        }
        return Optional.empty();
    }

    /**
     * The section that explains {@code rule}: docs/rules.md for a UTF-8 rule, content-rules.md for a
     * content rule, dlq.md for a size rule, connect.md for a rule only the Connect transformation
     * gives (a value nested too deep or holding itself), else payload-formats.md.
     */
    public static String of(String rule) {
        if (Arrays.stream(Rule.values()).anyMatch(r -> r.name().equals(rule))) {
            return "docs/rules.md#the-seven-rules";
        }
        if (Arrays.stream(ContentRule.values()).anyMatch(r -> r.name().equals(rule))) {
            return "docs/content-rules.md#content-rules";
        }
        if (rule.equals(DeadLetterRule.RECORD_TOO_LARGE.spelling())
                || rule.equals(DeadLetterRule.REPLACEMENT_TOO_LARGE.spelling())) {
            return "docs/dlq.md#records-too-large";
        }
        if (CONNECT_VALUE_RULES.contains(rule)) {
            return "docs/connect.md#deep-and-cyclic-values";
        }
        return "docs/payload-formats.md";
    }
}
