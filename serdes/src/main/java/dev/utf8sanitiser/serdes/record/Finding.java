package dev.utf8sanitiser.serdes.record;

import dev.utf8sanitiser.core.Utf8Error;

/**
 * The place a dead-letter record is described by: which part, which rule (one of the seven UTF-8
 * rules or a content rule), where, and the part's bytes for the context header.
 *
 * @param length the rule's length: a maximal subpart for UTF-8, the code point(s) for a content rule
 * @param highlighted how many bytes from {@code offset} the context brackets
 */
public record Finding(Part part, String rule, long offset, int length, int highlighted, byte[] bytes) {

    /** An ill-formed place; the bracket holds the run of adjacent ill-formed subparts. */
    static Finding of(Part part, Utf8Error error, byte[] bytes) {
        int from = (int) error.offset();
        int runEnd = DeadLetterAnnotation.illFormedRunEnd(bytes, from);
        return new Finding(part, error.rule().name(), error.offset(), error.length(), runEnd - from, bytes);
    }
}
