package dev.utf8sanitiser.app.dlq;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What another tool's dead-letter queue wrote on a record: Kafka Streams' (KIP-1034), Kafka
 * Connect's sink DLQ with context headers (KIP-298), Spring Kafka's DeadLetterPublishingRecoverer,
 * or Confluent's data-contract DLQ action. Read by {@link ForeignHeaders} from the block of that
 * tool's headers at the end of the record; a block that tool cannot have written is {@link
 * Refused}, never half read.
 */
public sealed interface Foreign permits Foreign.Annotated, Foreign.Refused {

    /** The tool that wrote the block. */
    Producer producer();

    /** The tools whose dead letters the dlq commands read, each with the prefix of its header names. */
    enum Producer {
        KAFKA_STREAMS("kafka-streams", "__streams.errors."),
        KAFKA_CONNECT("kafka-connect", "__connect.errors."),
        SPRING_KAFKA("spring-kafka", "kafka_dlt-"),
        CONFLUENT_RULE("confluent-rule", "__rule.");

        /** The name the commands print and {@code --producer} takes. */
        public final String label;

        final String prefix;

        Producer(String label, String prefix) {
            this.label = label;
            this.prefix = prefix;
        }

        /** The tool whose header names {@code name} belongs to, if any. */
        static Optional<Producer> ofHeader(String name) {
            for (Producer p : values()) {
                if (name.startsWith(p.prefix)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        }

        /** The labels, for messages. */
        public static List<String> labels() {
            return java.util.Arrays.stream(values()).map(p -> p.label).toList();
        }
    }

    /**
     * Where the failed record was read: a topic always; partition and offset where the tool writes
     * them (Confluent's rule action names the topic only).
     */
    record Source(String topic, OptionalInt partition, OptionalLong offset) {
        /** {@code topic-partition@offset}, or as much of it as is known. */
        @Override
        public String toString() {
            return topic
                    + (partition.isPresent() ? "-" + partition.getAsInt() : "")
                    + (offset.isPresent() ? "@" + offset.getAsLong() : "");
        }
    }

    /**
     * A well-formed block.
     *
     * @param error the exception class the tool names; for Confluent's rule action, which names
     *     none, {@code rule NAME}
     * @param details the other facts the tool wrote (connector, task, stage, rule mode...), in the
     *     tool's order, by their header names without the prefix
     * @param blockStart the index of the block's first header: the record's own headers are those
     *     before it
     * @param notReplayable why the record cannot go back to its source topic, when it cannot
     */
    record Annotated(
            Producer producer,
            Source source,
            String error,
            Optional<String> message,
            Map<String, String> details,
            int blockStart,
            Optional<String> notReplayable)
            implements Foreign {
        public Annotated {
            details = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(details));
        }
    }

    /** A block of the tool's header names that the tool cannot have written: why, in a sentence. */
    record Refused(Producer producer, String reason) implements Foreign {}
}
