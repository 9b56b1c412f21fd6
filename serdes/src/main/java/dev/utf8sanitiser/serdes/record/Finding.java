package dev.utf8sanitiser.serdes.record;

import java.util.Objects;
import java.util.Optional;

/**
 * The place a dead-letter record is described by: which part, which string inside it (Avro, JSON,
 * Connect structs), which rule (one of the seven UTF-8 rules, a content rule or a record-level rule
 * such as {@code MALFORMED_AVRO}), where, and the part's bytes for the context header.
 *
 * @param field the path of the string inside the part, as docs/dlq.md's {@code __utf8.field} spells it
 *     ({@code customer.name}, {@code lines[3].sku}, {@code tags{color}}, {@code tags{}}); empty for
 *     text parts and for record-level rules found outside any field
 * @param offset from the part's first byte as stored in Kafka (for Avro, the 5-byte prefix included)
 * @param length the rule's length: a maximal subpart for UTF-8, the code point(s) for a content rule
 * @param highlighted how many bytes from {@code offset} the context brackets
 * @param detail what the rule and the place do not say, ending the one-line message: the limit a
 *     value is nested beyond, or that fixing this place would make two keys of a map equal
 */
public record Finding(
        Part part,
        Optional<String> field,
        DeadLetterRule rule,
        long offset,
        int length,
        int highlighted,
        byte[] bytes,
        Optional<String> detail) {

    public Finding {
        Objects.requireNonNull(part, "part");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(detail, "detail");
    }

    /** A finding the rule and the place describe on their own. */
    public Finding(
            Part part,
            Optional<String> field,
            DeadLetterRule rule,
            long offset,
            int length,
            int highlighted,
            byte[] bytes) {
        this(part, field, rule, offset, length, highlighted, bytes, Optional.empty());
    }

    /** A finding in a text part, outside any field. */
    public Finding(Part part, DeadLetterRule rule, long offset, int length, int highlighted, byte[] bytes) {
        this(part, Optional.empty(), rule, offset, length, highlighted, bytes);
    }

    /** The same finding, its message ending in {@code detail}. */
    public Finding withDetail(String detail) {
        return new Finding(part, field, rule, offset, length, highlighted, bytes, Optional.of(detail));
    }
}
