package dev.utf8sanitiser.app.dlq;

import dev.utf8sanitiser.serdes.record.DeadLetterRule;
import java.util.Optional;

/**
 * Where the documentation explains a rule a dead letter names, for the operator reading it: a view
 * of {@link DeadLetterRule} for a name as read from a header, which may be one this version does
 * not know.
 */
public final class RuleDocs {
    /** Where the documentation is published, for a link from a page. */
    public static final String PUBLISHED = "https://github.com/utf8-sanitiser/utf8-sanitiser/blob/main/";

    /**
     * The page for a rule this version does not know: most likely a payload format's rule of a
     * newer version, and that page lists the formats this one reads.
     */
    static final String UNKNOWN = "docs/payload-formats.md";

    private RuleDocs() {}

    /**
     * What the rule means, in words, for a rule about the text itself (a UTF-8 or content rule); for
     * another rule (payload format, size, Connect value) or an unknown name, empty: the record's
     * message says it.
     */
    public static Optional<String> description(String rule) {
        return DeadLetterRule.named(rule).filter(r -> r.family().text()).map(DeadLetterRule::description);
    }

    /** The section that explains {@code rule} ({@link DeadLetterRule#docs()}), or {@link #UNKNOWN}. */
    public static String of(String rule) {
        return DeadLetterRule.named(rule).map(DeadLetterRule::docs).orElse(UNKNOWN);
    }
}
