package dev.utf8sanitiser.bench;

import dev.utf8sanitiser.app.topology.SanitiserTopology;
import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.Topology;

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
    ROUTED_PASS_THROUGH("pass-through routed by name, no validation");

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

    /** The topologies the options ask for: the processor and routed pass-throughs only on request. */
    static List<Topo> inUse(EndToEndOptions options) {
        List<Topo> all = new ArrayList<>(List.of(values()));
        if (!options.withProcessorPassThrough) {
            all.remove(PROCESSOR_PASS_THROUGH);
        }
        if (!options.withRoutedPassThrough) {
            all.remove(ROUTED_PASS_THROUGH);
        }
        return all;
    }

    /** Whether it sends the ill-formed records to the dead-letter topic. */
    boolean deadLetters() {
        return this == BRANCHING || this == SANITISER;
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
