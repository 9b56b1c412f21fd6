package dev.utf8sanitiser.streams;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.IllFormedTextException;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.Decision;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Library mode with the sanitising serdes: a record whose bytes a {@code SanitisingDeserializer}
 * refused goes to Kafka Streams' own dead-letter topic ({@code errors.dead.letter.queue.topic.name},
 * KIP-1034), byte-exact, with the {@code __utf8.*} annotation and Kafka's {@code __streams.errors.*}
 * headers of docs/dlq.md, and processing resumes with the next record. Under exactly-once the
 * dead-letter write is part of the task's transaction.
 *
 * <p>Any other exception fails the application, as Kafka's default handler does: a registry that
 * cannot answer, or a deserializer's bug, is not a verdict on the record (docs/library.md).
 *
 * <p>Set it as {@code deserialization.exception.handler}, with the dead-letter topic, which it
 * requires: without one a refused record would be dropped.
 */
public final class IllFormedTextExceptionHandler implements DeserializationExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(IllFormedTextExceptionHandler.class);

    private String deadLetterTopic;
    private DeadLetterAnnotation annotation;
    private SizeLimits limits;

    @Override
    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        if (topic == null || topic.toString().isBlank()) {
            throw new ConfigException(
                    StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG,
                    topic,
                    IllFormedTextExceptionHandler.class.getSimpleName()
                            + " sends refused records to this topic, so it must be set: without it they"
                            + " would be dropped");
        }
        this.deadLetterTopic = topic.toString();
        this.annotation = new DeadLetterAnnotation(new SanitiserConfig(configs, Set.of()).dlqContextBytes());
        this.limits = SizeLimits.of(configs);
    }

    @Override
    public Response handleError(
            ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record, Exception exception) {
        Optional<IllFormedTextException> refused = refusal(exception);
        if (refused.isEmpty()) {
            LOG.error(
                    "deserialization failed, not for ill-formed text: stopping; topic={} partition={} offset={}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    exception);
            return Response.fail();
        }
        IllFormedTextException illFormed = refused.get();
        DeadLetterRecord fitted = DeadLetterRecord.fitting(
                record.key(),
                record.value(),
                record.headers(),
                new Decision.DeadLetter<>(illFormed.finding(), illFormed.errors()),
                annotation,
                illFormed.policy(),
                new DeadLetterAnnotation.Source(record.topic(), record.partition(), record.offset()),
                record.timestamp(),
                deadLetterTopic,
                limits.of(deadLetterTopic));
        // Coordinates and rule only: never the payload.
        LOG.debug(
                "dead-lettered topic={} partition={} offset={} rule={} to {}",
                record.topic(),
                record.partition(),
                record.offset(),
                fitted.rule(),
                deadLetterTopic);
        return Response.resume(List.of(new ProducerRecord<>(
                deadLetterTopic, null, record.timestamp(), fitted.key(), fitted.value(), fitted.headers())));
    }

    /** The ill-formed-text refusal that caused {@code exception}, if one did. */
    private static Optional<IllFormedTextException> refusal(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof IllFormedTextException illFormed) {
                return Optional.of(illFormed);
            }
        }
        return Optional.empty();
    }
}
