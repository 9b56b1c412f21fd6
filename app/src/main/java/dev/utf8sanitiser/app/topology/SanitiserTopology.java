package dev.utf8sanitiser.app.topology;

import dev.utf8sanitiser.config.OwnTopics;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import dev.utf8sanitiser.serdes.record.ValueFormat;
import dev.utf8sanitiser.streams.Routes;
import dev.utf8sanitiser.streams.SanitiseProcessor;
import dev.utf8sanitiser.streams.SinkTopics;
import dev.utf8sanitiser.streams.SizeLimits;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;

/**
 * The topology, in one place, as docs/architecture.md describes it:
 *
 * <pre>
 *   source (input topics or pattern, byte[])
 *     [-> own-topic filter  (a pattern only: not the sanitiser's own output and DLQ topics)]
 *     -> sanitise (policy, DLQ annotation)
 *          -> output sink      (sanitiser.output.topic, ${topic} = the record's input topic)
 *          -> dead-letter sink (sanitiser.dlq.topic,    same template)
 * </pre>
 */
public final class SanitiserTopology {
    static final String SOURCE = "input";
    static final String OWN_TOPIC_FILTER = "own-topic-filter";
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

    /**
     * The topology, reading values with {@code format} (which the caller made from the same config);
     * records are kept under the producer's {@code max.request.size} as the configuration sets it.
     */
    public static Topology build(SanitiserConfig config, ValueFormat format) {
        return build(config, format, SizeLimits.of(config.streamsProperties()));
    }

    /** The topology, keeping each record it writes within {@code limits}. */
    public static Topology build(SanitiserConfig config, ValueFormat format, SizeLimits limits) {
        RecordSanitiser sanitiser = ValueFormats.sanitiser(config, format);
        DeadLetterAnnotation annotation = new DeadLetterAnnotation(config.dlqContextBytes());
        SinkTopics sinks = new SinkTopics(config);
        Topology topology = new Topology();
        String sanitiseParent = SOURCE;
        if (config.inputPattern().isPresent()) {
            topology.addSource(
                    SOURCE,
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(),
                    config.inputPattern().get());
            // Listed inputs are checked at start-up, exactly; a pattern may still match an output.
            OwnTopics ownTopics = OwnTopics.of(config);
            topology.addProcessor(OWN_TOPIC_FILTER, () -> new OwnTopicFilter(ownTopics), SOURCE);
            sanitiseParent = OWN_TOPIC_FILTER;
        } else {
            topology.addSource(
                    SOURCE,
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(),
                    config.inputTopics().toArray(String[]::new));
        }
        topology.addProcessor(
                SANITISE,
                () -> new SanitiseProcessor<>(
                        sanitiser,
                        annotation,
                        sinks,
                        limits,
                        config.inputTopics(),
                        Routes.toChildren(OUTPUT, DEAD_LETTER),
                        config.circuitBreaker()),
                sanitiseParent);
        topology.addSink(
                OUTPUT,
                (key, value, recordContext) -> sinks.output(recordContext.topic()),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                SANITISE);
        topology.addSink(
                DEAD_LETTER,
                (key, value, recordContext) -> sinks.deadLetter(recordContext.topic()),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                SANITISE);
        return topology;
    }
}
