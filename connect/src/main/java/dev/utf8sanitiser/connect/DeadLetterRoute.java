package dev.utf8sanitiser.connect;

import dev.utf8sanitiser.config.HeaderType;
import dev.utf8sanitiser.config.TopicTemplate;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.Decision;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * {@code sanitiser.on.reject=route}: the rejected record, with its key, value, schemas, timestamp
 * and headers as they were, sent to the dead-letter topic ({@code sanitiser.dlq.topic}, {@code
 * ${topic}} being the record's topic) with the headers of docs/dlq.md, written by serdes' {@link
 * DeadLetterAnnotation} as in the Kafka Streams sanitiser.
 *
 * <p>Where the record came from ({@code __utf8.source.*} and {@code __streams.errors.topic},
 * {@code partition}, {@code offset}):
 *
 * <ul>
 *   <li>a sink record: the topic, partition and offset it was consumed from (before any earlier
 *       transformation renamed it);
 *   <li>a source record whose connector names a Kafka position in its source partition and offset
 *       ({@code topic}, {@code partition} and {@code offset} entries, as MirrorMaker 2 does): that
 *       position;
 *   <li>any other source record, which has no Kafka position yet: the topic the connector gave it,
 *       its partition or -1, and offset -1. The connector's own position (a file offset, a database
 *       log position) stays in Connect's offsets, not in the headers.
 * </ul>
 *
 * {@code __utf8.source.timestamp} is the record's timestamp, or -1 when it has none.
 */
final class DeadLetterRoute {
    private final TopicTemplate topic;
    private final DeadLetterAnnotation annotation;
    private final Policy policy;
    private final HeaderType headerType;

    DeadLetterRoute(TopicTemplate topic, int contextBytes, Policy policy, HeaderType headerType) {
        this.topic = topic;
        this.annotation = new DeadLetterAnnotation(contextBytes);
        this.policy = policy;
        this.headerType = headerType;
    }

    <R extends ConnectRecord<R>> R route(R record, Decision.DeadLetter<?> verdict) {
        long timestamp = record.timestamp() == null ? -1 : record.timestamp();
        Headers headers = record.headers().duplicate();
        annotation
                .annotate(List.of(), verdict, policy, sourceOf(record), timestamp)
                .forEach(header -> ConnectHeaders.add(headers, header.key(), header.value(), headerType));
        // A source record's partition is the connector's choice for its own topic; the dead-letter
        // topic may have fewer, so the producer chooses. A sink record keeps it, as RegexRouter does.
        Integer partition = record instanceof SinkRecord ? record.kafkaPartition() : null;
        return record.newRecord(
                topic.render(record.topic()),
                partition,
                record.keySchema(),
                record.key(),
                record.valueSchema(),
                record.value(),
                record.timestamp(),
                headers);
    }

    static DeadLetterAnnotation.Source sourceOf(ConnectRecord<?> record) {
        if (record instanceof SinkRecord sink) {
            Integer partition = sink.originalKafkaPartition();
            return new DeadLetterAnnotation.Source(
                    sink.originalTopic(), partition == null ? -1 : partition, sink.originalKafkaOffset());
        }
        if (record instanceof SourceRecord source) {
            Map<String, ?> partition = source.sourcePartition();
            Map<String, ?> offset = source.sourceOffset();
            if (partition != null
                    && offset != null
                    && partition.get("topic") instanceof String t
                    && partition.get("partition") instanceof Number p
                    && offset.get("offset") instanceof Number o) {
                return new DeadLetterAnnotation.Source(t, p.intValue(), o.longValue());
            }
        }
        Integer partition = record.kafkaPartition();
        return new DeadLetterAnnotation.Source(record.topic(), partition == null ? -1 : partition, -1);
    }
}
