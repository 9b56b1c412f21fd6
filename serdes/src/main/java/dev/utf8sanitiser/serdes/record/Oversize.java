package dev.utf8sanitiser.serdes.record;

import java.util.Objects;

/**
 * Why a record goes to the dead-letter topic for its size: the copy that should have been written
 * is larger than the topic it was meant for accepts (docs/dlq.md, "Records too large").
 *
 * @param rule {@link #REPLACEMENT_TOO_LARGE} or {@link #RECORD_TOO_LARGE}
 * @param sink the topic the copy did not fit, as an operator calls it: {@code output} or {@code
 *     dead-letter}
 * @param size the copy's size in bytes, as the sanitiser estimates it (at least what the producer
 *     and the broker count)
 * @param limit the most bytes that topic takes
 */
public record Oversize(String rule, String sink, long size, int limit) {
    /** Replaced, repaired or normalised, the record would be larger than the output topic takes. */
    public static final String REPLACEMENT_TOO_LARGE = "REPLACEMENT_TOO_LARGE";

    /** The record, as it is, is larger than the topic it must go to takes. */
    public static final String RECORD_TOO_LARGE = "RECORD_TOO_LARGE";

    public static final String OUTPUT = "output";
    public static final String DEAD_LETTER = "dead-letter";

    public Oversize {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(sink, "sink");
    }

    /** {@code RECORD_TOO_LARGE: 3145828 bytes, over the output limit of 1048576}. */
    String describe() {
        return rule + ": " + size + " bytes, over the " + sink + " limit of " + limit;
    }
}
