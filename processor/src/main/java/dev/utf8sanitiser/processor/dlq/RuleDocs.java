package dev.utf8sanitiser.processor.dlq;

import dev.utf8sanitiser.core.Rule;
import dev.utf8sanitiser.core.content.ContentRule;
import dev.utf8sanitiser.serdes.record.Oversize;
import java.util.Arrays;

/** Where the documentation explains a rule a dead letter names, for the operator reading it. */
final class RuleDocs {
    private RuleDocs() {}

    /** docs/rules.md for a UTF-8 rule, content-rules.md, dlq.md for a size rule, else payload-formats.md. */
    static String of(String rule) {
        if (Arrays.stream(Rule.values()).anyMatch(r -> r.name().equals(rule))) {
            return "docs/rules.md";
        }
        if (Arrays.stream(ContentRule.values()).anyMatch(r -> r.name().equals(rule))) {
            return "docs/content-rules.md";
        }
        if (rule.equals(Oversize.RECORD_TOO_LARGE) || rule.equals(Oversize.REPLACEMENT_TOO_LARGE)) {
            return "docs/dlq.md#records-too-large";
        }
        return "docs/payload-formats.md";
    }
}
