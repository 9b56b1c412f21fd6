package dev.utf8sanitiser.config;

import java.util.EnumSet;
import java.util.Set;

/**
 * A rule between keys that only some hosts need. Every other rule, for one key or between keys,
 * always applies.
 */
public enum Requirement {
    /**
     * Exactly one of {@code sanitiser.input.topics} and {@code sanitiser.input.pattern} is set. The
     * Kafka Streams processor needs it; a Connect SMT does not, as the connector chooses the topics.
     * (Setting both is always an error.)
     */
    INPUT,
    /**
     * {@code schema.registry.url} is set when {@code sanitiser.payload.format} is {@code avro} or
     * {@code protobuf}.
     * {@code run} without {@code bootstrap.servers} and {@code demo} leave this out: they start a test
     * registry when the URL is absent, then add it with {@link SanitiserConfig#withOverrides}.
     */
    SCHEMA_REGISTRY_FOR_AVRO,
    /**
     * Kafka Streams' exception handlers ({@code processing.exception.handler} and the others) are
     * unset or Kafka's failing ones, and Kafka's own dead-letter topic is unset, so that no record is
     * dropped or filed as dead for a failure that is not its own. The Kafka Streams processor needs
     * it; the serdes and the Connect SMT, which run in someone else's application, do not.
     */
    STREAMS_FAILURE_HANDLING;

    /** Every requirement: the processor against a real cluster. */
    public static Set<Requirement> all() {
        return EnumSet.allOf(Requirement.class);
    }

    /** The processor with embedded Kafka ({@code run} without {@code bootstrap.servers}, {@code demo}). */
    public static Set<Requirement> embedded() {
        return EnumSet.of(INPUT, STREAMS_FAILURE_HANDLING);
    }

    /** The Kafka Connect SMT. */
    public static Set<Requirement> connect() {
        return EnumSet.of(SCHEMA_REGISTRY_FOR_AVRO);
    }
}
