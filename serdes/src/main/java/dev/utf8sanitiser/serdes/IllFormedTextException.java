package dev.utf8sanitiser.serdes;

import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.Finding;
import java.util.Optional;
import org.apache.kafka.common.errors.SerializationException;

/**
 * A sanitising serde refused bytes: not well-formed UTF-8 (under {@code strict}), a content rule
 * set to {@code reject}, or a record-level rule ({@code NOT_AVRO}, {@code MALFORMED_AVRO},
 * {@code INVALID_JSON}...). The message is the one line of docs/dlq.md's {@code __streams.errors.message},
 * e.g. {@code SURROGATE at value field customer.name byte 22 (ED A0 80)}.
 *
 * <p>A consumer gets it wrapped in Kafka's {@code RecordDeserializationException}, which names the
 * partition and offset so the application can seek past the record or send it to a dead-letter topic.
 */
public final class IllFormedTextException extends SerializationException {
    private final transient Finding finding;
    private final int errors;
    private final Policy policy;

    IllFormedTextException(String topic, Finding finding, int errors, Policy policy) {
        super(DeadLetterAnnotation.message(finding) + " in a record of topic " + topic + " (" + errors
                + (errors == 1 ? " error)" : " errors)"));
        this.finding = finding;
        this.errors = errors;
        this.policy = policy;
    }

    /** The first finding: rule, part, offset, field and the bytes it was found in. */
    public Finding finding() {
        return finding;
    }

    /** The policy that refused the bytes. */
    public Policy policy() {
        return policy;
    }

    /**
     * The rule of the first finding as {@code __utf8.rule} spells it: one of docs/rules.md, a content
     * rule, or a record-level rule ({@code finding().rule()} is the {@link
     * dev.utf8sanitiser.serdes.record.DeadLetterRule}).
     */
    public String rule() {
        return finding.rule().spelling();
    }

    /** Where the first finding is, from the first byte of the serialized key or value. */
    public long offset() {
        return finding.offset();
    }

    /** The path of the string it is in (Avro, JSON). */
    public Optional<String> field() {
        return finding.field();
    }

    /** How many findings the bytes held. */
    public int errors() {
        return errors;
    }
}
