package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.app.topology.SanitiserTopology;
import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;

/**
 * The topologies {@link EndToEndBenchmark} runs: the sanitiser's and its controls, in the order each
 * round of runs takes them.
 */
enum Topo {
    PASS_THROUGH("pass-through"),
    /**
     * A pass-through that sends the ill-formed records to the dead-letter topic, as they are:
     * what a second topic in every transaction costs, whoever writes it.
     */
    BRANCHING("pass-through, ill-formed to a 2nd topic"),
    SANITISER("sanitiser (strict)"),
    /**
     * Source to a processor that forwards every record to its one child, a sink: what a
     * processor node between them costs in Kafka Streams, without any work of its own. Only
     * with {@code --with-processor-pass-through}.
     */
    PROCESSOR_PASS_THROUGH("pass-through through one processor"),
    /**
     * The branching pass-through's topology (a processor, two sinks) with a processor that sends
     * every record to the first sink by its name, reading nothing of it: what routing between
     * two sinks costs without the validation. Only with {@code --with-routed-pass-through}.
     */
    ROUTED_PASS_THROUGH("pass-through routed by name, no validation"),
    /**
     * Plain Kafka Streams with its own dead-letter queue: values read with {@link
     * StrictUtf8Deserializer}, passed through as {@code String}s, and {@code
     * errors.dead.letter.queue.topic.name} with {@link LogAndContinueExceptionHandler}, which sends
     * each record that fails to deserialize to the dead-letter topic with Kafka's {@code
     * __streams.errors.*} headers and goes on. Only with {@code --with-streams-dlq}.
     */
    STREAMS_DLQ("Kafka Streams DLQ, strict String deserializer");

    final String label;

    Topo(String label) {
        this.label = label;
    }

    /**
     * The order of round {@code round} (from 1): each round starts one topology further on, so
     * that every topology runs first, second and third in the round equally often, and what a
     * place in the round brings (the broker still deleting the topics of the runs before) falls
     * on each alike.
     */
    static List<Topo> inRound(int round, List<Topo> all) {
        List<Topo> order = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) {
            order.add(all.get((round - 1 + i) % all.size()));
        }
        return order;
    }

    /** The topologies the options ask for: the processor and routed pass-throughs and Streams' DLQ only on request. */
    static List<Topo> inUse(EndToEndOptions options) {
        List<Topo> all = new ArrayList<>(List.of(values()));
        if (!options.withProcessorPassThrough) {
            all.remove(PROCESSOR_PASS_THROUGH);
        }
        if (!options.withRoutedPassThrough) {
            all.remove(ROUTED_PASS_THROUGH);
        }
        if (!options.withStreamsDlq) {
            all.remove(STREAMS_DLQ);
        }
        return all;
    }

    /** Whether it sends the ill-formed records to the dead-letter topic. */
    boolean deadLetters() {
        return this == BRANCHING || this == SANITISER || this == STREAMS_DLQ;
    }

    /**
     * Kafka Streams properties of this topology alone, on top of the run's: {@link #STREAMS_DLQ}'s
     * dead-letter topic (the run's, as the others write) and the handler that writes to it and
     * goes on. The default handler, {@code LogAndFailExceptionHandler}, would stop the application.
     */
    Map<String, Object> ownStreamsProperties(SanitiserConfig config) {
        if (this != STREAMS_DLQ) {
            return Map.of();
        }
        String input = config.inputTopics().get(0);
        return Map.of(
                StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG,
                config.dlqTopicTemplate().render(input),
                StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndContinueExceptionHandler.class.getName());
    }

    Topology build(SanitiserConfig config) {
        if (this == SANITISER) {
            return SanitiserTopology.build(config);
        }
        // Source straight to sink: the same serdes as SanitiserTopology, no processor between
        // (or only the branch), and the output topic named once.
        String input = config.inputTopics().get(0);
        String output = config.outputTopicTemplate().render(input);
        Topology topology = new Topology();
        if (this == STREAMS_DLQ) {
            topology.addSource("input", new ByteArrayDeserializer(), new StrictUtf8Deserializer(), input);
            topology.addSink("output", output, new ByteArraySerializer(), new StringSerializer(), "input");
            return topology;
        }
        topology.addSource("input", new ByteArrayDeserializer(), new ByteArrayDeserializer(), input);
        if (this == PASS_THROUGH) {
            topology.addSink("output", output, new ByteArraySerializer(), new ByteArraySerializer(), "input");
            return topology;
        }
        if (this == PROCESSOR_PASS_THROUGH) {
            topology.addProcessor("forward", ControlProcessor.ForwardEach::new, "input");
            topology.addSink("output", output, new ByteArraySerializer(), new ByteArraySerializer(), "forward");
            return topology;
        }
        topology.addProcessor(
                "branch",
                this == ROUTED_PASS_THROUGH
                        ? ControlProcessor.ForwardToOutput::new
                        : ControlProcessor.BranchByUtf8::new,
                "input");
        topology.addSink("output", output, new ByteArraySerializer(), new ByteArraySerializer(), "branch");
        topology.addSink(
                "dead-letter",
                config.dlqTopicTemplate().render(input),
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                "branch");
        return topology;
    }
}
