package dev.utf8sanitiser.processor.streams;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.config.TopicTemplate;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.TopicNameExtractor;

/**
 * The topology, in one place, as docs/architecture.md describes it:
 *
 * <pre>
 *   source (input topics or pattern, byte[])
 *     -> sanitise (policy, DLQ annotation)
 *          -> output sink      (sanitiser.output.topic, ${topic} = the record's input topic)
 *          -> dead-letter sink (sanitiser.dlq.topic,    same template)
 * </pre>
 */
public final class SanitiserTopology {
    static final String SOURCE = "input";
    static final String SANITISE = "sanitise";
    static final String OUTPUT = "output";
    static final String DEAD_LETTER = "dead-letter";

    private SanitiserTopology() {}

    /** The topology for text or JSON values; Avro needs a schema registry, see the other form. */
    public static Topology build(SanitiserConfig config) {
        return build(config, ValueFormats.of(config, () -> {
            throw new IllegalArgumentException("Avro values need a schema registry");
        }));
    }

    /** The topology, reading values with {@code format} (which the caller made from the same config). */
    public static Topology build(SanitiserConfig config, ValueFormat format) {
        RecordSanitiser sanitiser = ValueFormats.sanitiser(config, format);
        DeadLetterAnnotation annotation = new DeadLetterAnnotation(config.dlqContextBytes());
        Topology topology = new Topology();
        if (config.inputPattern().isPresent()) {
            topology.addSource(
                    SOURCE,
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(),
                    config.inputPattern().get());
        } else {
            topology.addSource(
                    SOURCE,
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(),
                    config.inputTopics().toArray(String[]::new));
        }
        topology.addProcessor(SANITISE, () -> new SanitiseProcessor(sanitiser, annotation), SOURCE);
        topology.addSink(
                OUTPUT,
                topicOf(config.outputTopicTemplate()),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                SANITISE);
        topology.addSink(
                DEAD_LETTER,
                topicOf(config.dlqTopicTemplate()),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                SANITISE);
        return topology;
    }

    /** The sink topic for the record's input topic; rendered once per input topic, not per record. */
    private static TopicNameExtractor<byte[], byte[]> topicOf(TopicTemplate template) {
        Map<String, String> rendered = new ConcurrentHashMap<>();
        return (key, value, recordContext) -> rendered.computeIfAbsent(recordContext.topic(), template::render);
    }
}
