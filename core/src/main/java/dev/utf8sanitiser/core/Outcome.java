package dev.utf8sanitiser.core;

import java.util.Locale;

/**
 * What happened to a piece of text, or to a whole record: the one vocabulary every host uses for
 * its headers ({@code __utf8.action}), its metrics and its reports (docs/operations.md, docs/dlq.md).
 */
public enum Outcome {
    /** Well-formed, and no content rule changed it: sent on as it came. */
    PASSED,
    /** Some ill-formed subparts became U+FFFD (repairs may have been made too). */
    REPLACED,
    /** Only repairs (CESU-8, Modified UTF-8) were needed. */
    REPAIRED,
    /** Well-formed; a content rule removed characters. */
    STRIPPED,
    /** Well-formed; it was brought to the configured normalisation form. */
    NORMALISED,
    /**
     * Not to be sent on: ill-formed under STRICT, or refused by a content rule or a record-level
     * rule. The Kafka Streams sanitiser dead-letters it; Connect fails or routes it.
     */
    REJECTED;

    /** The lower-case name: the value of {@code __utf8.action} for an outcome that changed the text. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the text was sent on changed. */
    public boolean changed() {
        return this == REPLACED || this == REPAIRED || this == STRIPPED || this == NORMALISED;
    }
}
