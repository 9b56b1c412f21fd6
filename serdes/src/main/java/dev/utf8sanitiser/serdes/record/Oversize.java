package dev.utf8sanitiser.serdes.record;

import java.util.Objects;

/**
 * Why a record goes to the dead-letter topic for its size: the copy that should have been written
 * is larger than the topic it was meant for accepts (docs/dlq.md, "Records too large").
 *
 * @param rule {@link DeadLetterRule#REPLACEMENT_TOO_LARGE} or {@link DeadLetterRule#RECORD_TOO_LARGE}
 * @param sink the topic the copy did not fit, as an operator calls it: {@code output} or {@code
 *     dead-letter}
 * @param size the copy's size in bytes, as the sanitiser estimates it (at least what the producer
 *     and the broker count)
 * @param limit the most bytes that topic takes
 */
public record Oversize(DeadLetterRule rule, String sink, long size, int limit) {
    public static final String OUTPUT = "output";
    public static final String DEAD_LETTER = "dead-letter";

    public Oversize {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(sink, "sink");
    }

    /** {@code RECORD_TOO_LARGE: 3145828 bytes, over the output limit of 1048576}. */
    String describe() {
        return rule.spelling() + ": " + size + " bytes, over the " + sink + " limit of " + limit;
    }
}
