package dev.utf8sanitiser.streams;

import dev.utf8sanitiser.config.CircuitBreakerSettings;
import dev.utf8sanitiser.config.Requirement;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.registry.SchemaRegistryOwner;
import dev.utf8sanitiser.serdes.ValueFormats;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.RecordSanitiser;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;

/**
 * Library mode: the sanitiser's processor in a user's own Kafka Streams application, configured with
 * the sanitiser's keys (docs/configuration.md) from the application's own properties, and deciding
 * exactly as the sanitiser application does: the same policy, the same dead-letter annotation, the
 * same size limits and metrics (docs/library.md).
 *
 * <pre>{@code
 * try (StreamsSanitiser sanitiser = StreamsSanitiser.create(props)) {
 *     KStream<byte[], byte[]> raw = builder.stream("orders", Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()));
 *     SanitisedStreams parts = sanitiser.sanitise(raw);
 *     parts.output().to("orders.clean", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
 *     parts.deadLetters().to("orders.dlq", Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
 *     ... run the KafkaStreams built from builder, and close it before the sanitiser
 * }
 * }</pre>
 *
 * <p>It owns the schema registry client that Avro payloads need, opened on first use and closed by
 * {@link #close()}, after the application's {@code KafkaStreams} has closed.
 */
public final class StreamsSanitiser implements AutoCloseable {
    /** The name the DSL nodes of {@link #sanitise(KStream)} start with. */
    public static final String DEFAULT_NAME = "utf8-sanitiser";

    private final RecordSanitiser sanitiser;
    private final DeadLetterAnnotation annotation;
    private final SinkTopics sinks;
    private final SizeLimits limits;
    private final CircuitBreakerSettings breaker;
    private final SchemaRegistryOwner registry;

    private StreamsSanitiser(SanitiserConfig config, SchemaRegistryOwner registry, Map<String, ?> configs) {
        this.registry = registry;
        this.sanitiser = ValueFormats.sanitiser(config, ValueFormats.of(config, registry));
        this.breaker = config.circuitBreaker();
        this.annotation = new DeadLetterAnnotation(config.dlqContextBytes());
        this.sinks = new SinkTopics(config);
        this.limits = SizeLimits.of(configs);
    }

    /**
     * From the application's properties: the {@code sanitiser.*} keys, {@code schema.registry.url}
     * and the keys beside it for Avro, and the producer's {@code max.request.size} (or {@code
     * producer.max.request.size}), which no record it forwards will exceed. Input and output topics
     * are the application's; {@code sanitiser.input.topics} is not needed.
     *
     * @throws dev.utf8sanitiser.config.SanitiserConfigException with every problem in {@code configs}
     */
    public static StreamsSanitiser create(Map<String, ?> configs) {
        SanitiserConfig config = new SanitiserConfig(configs, EnumSet.of(Requirement.SCHEMA_REGISTRY_FOR_AVRO));
        return new StreamsSanitiser(config, SchemaRegistryOwner.unchecked(config), configs);
    }

    /** {@link #sanitise(KStream, String)} with nodes named from {@link #DEFAULT_NAME}. */
    public SanitisedStreams sanitise(KStream<byte[], byte[]> input) {
        return sanitise(input, DEFAULT_NAME);
    }

    /**
     * Sanitises {@code input} and parts it into the output and the dead letters.
     *
     * @param name the prefix of the nodes' names; each use in one topology needs its own
     */
    public SanitisedStreams sanitise(KStream<byte[], byte[]> input, String name) {
        KStream<byte[], Routed> routed = input.process(
                () -> new SanitiseProcessor<>(
                        sanitiser, annotation, sinks, limits, List.of(), Routed.IN_THE_VALUE, breaker),
                Named.as(name));
        Map<String, KStream<byte[], Routed>> parts = routed.split(Named.as(name + "-"))
                .branch((key, value) -> value.deadLetter(), Branched.as("dead-letters"))
                .defaultBranch(Branched.as("output"));
        return new SanitisedStreams(
                parts.get(name + "-output").mapValues(Routed::bytes, Named.as(name + "-output-values")),
                parts.get(name + "-dead-letters").mapValues(Routed::bytes, Named.as(name + "-dead-letter-values")));
    }

    /**
     * For a {@code Topology} built with the Processor API: a processor that forwards each record to
     * one of two children, which the caller adds under these names (sinks, or processors of its own).
     */
    public ProcessorSupplier<byte[], byte[], byte[], byte[]> processor(String outputChild, String deadLetterChild) {
        Routes<byte[]> routes = Routes.toChildren(outputChild, deadLetterChild);
        return () -> new SanitiseProcessor<>(sanitiser, annotation, sinks, limits, List.of(), routes, breaker);
    }

    /** Closes the schema registry client, if one was opened. */
    @Override
    public void close() {
        registry.close();
    }
}
