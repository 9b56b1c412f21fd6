package dev.utf8sanitiser.app;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the output and dead-letter topics of listed input topics before the application starts,
 * with the input's partition count and the broker's default replication: a dynamic sink cannot
 * create them, and a transactional producer waiting for a missing topic fails the application. For
 * an input pattern, topics appear later: the broker's auto-creation or the operator provides them,
 * and only the limits of those that exist at start-up are known.
 *
 * <p>A topic it creates takes {@link #ROOM} bytes more per record than its input ({@code
 * max.message.bytes}), so that a record the input took still fits with the dead-letter annotation,
 * or with {@code __utf8.action} and a few replaced bytes. It reports every sink topic's {@code
 * max.message.bytes}, so that records are kept within them (docs/dlq.md, "Records too large").
 */
final class TopicProvisioner {
    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);

    /** Bytes a created output or dead-letter topic takes beyond its input: the annotation's room. */
    static final int ROOM = 64 * 1024;

    /** How often, and how far apart, the configuration of a topic just created is asked for. */
    private static final int DESCRIBE_ATTEMPTS = 20;

    private static final long DESCRIBE_BACKOFF_MS = 250;

    private TopicProvisioner() {}

    /**
     * @param createInputs also create missing input topics (only on the embedded broker: on a real
     *     cluster a missing input is the operator's mistake, and Kafka Streams says so)
     * @return {@code max.message.bytes} of each output and dead-letter topic of the listed inputs
     */
    static Map<String, Integer> provision(Admin admin, SanitiserConfig config, boolean createInputs)
            throws ExecutionException, InterruptedException {
        List<String> inputs = config.inputTopics();
        Set<String> existing = admin.listTopics().names().get();
        if (inputs.isEmpty()) {
            return patternSinkLimits(admin, config, existing);
        }
        Map<String, Integer> partitions = new LinkedHashMap<>();
        List<NewTopic> missingInputs = new ArrayList<>();
        for (String input : inputs) {
            if (existing.contains(input)) {
                TopicDescription description = admin.describeTopics(List.of(input))
                        .allTopicNames()
                        .get()
                        .get(input);
                partitions.put(input, description.partitions().size());
            } else {
                partitions.put(input, 1);
                if (createInputs) {
                    missingInputs.add(new NewTopic(input, Optional.of(1), Optional.empty()));
                }
            }
        }
        create(admin, missingInputs);
        Map<String, Integer> inputLimits = maxMessageBytes(admin, inputsThatExist(inputs, existing, missingInputs));
        Map<String, NewTopic> sinks = new LinkedHashMap<>();
        Set<String> sinkNames = new LinkedHashSet<>();
        for (String input : inputs) {
            for (String sink : List.of(
                    config.outputTopicTemplate().render(input),
                    config.dlqTopicTemplate().render(input))) {
                sinkNames.add(sink);
                if (existing.contains(sink) || sinks.containsKey(sink)) {
                    continue;
                }
                NewTopic topic = new NewTopic(sink, Optional.of(partitions.get(input)), Optional.empty());
                Integer inputLimit = inputLimits.get(input);
                if (inputLimit != null) {
                    topic.configs(Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(inputLimit + ROOM)));
                }
                sinks.put(sink, topic);
            }
        }
        create(admin, sinks.values());
        // The limits of the topics created here are known; the others are asked for.
        Map<String, Integer> limits = new HashMap<>();
        List<String> unknown = new ArrayList<>();
        for (String sink : sinkNames) {
            NewTopic created = sinks.get(sink);
            if (created != null && created.configs() != null) {
                limits.put(sink, Integer.parseInt(created.configs().get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG)));
            } else {
                unknown.add(sink);
            }
        }
        limits.putAll(maxMessageBytes(admin, unknown));
        return limits;
    }

    /**
     * For an input pattern, the limits of the sink topics of the inputs that exist now: a topic that
     * appears later is known after a restart (and a record too large for it stops the application
     * once, not for ever).
     */
    private static Map<String, Integer> patternSinkLimits(Admin admin, SanitiserConfig config, Set<String> existing)
            throws ExecutionException, InterruptedException {
        if (config.inputPattern().isEmpty()) {
            return Map.of();
        }
        Pattern pattern = config.inputPattern().get();
        Set<String> sinks = new LinkedHashSet<>();
        for (String topic : existing) {
            if (!pattern.matcher(topic).matches()) {
                continue;
            }
            for (var template : List.of(config.outputTopicTemplate(), config.dlqTopicTemplate())) {
                try {
                    String sink = template.render(topic);
                    if (existing.contains(sink)) {
                        sinks.add(sink);
                    }
                } catch (IllegalArgumentException e) {
                    // A name too long for a topic: Kafka Streams reports it when the record comes.
                }
            }
        }
        return maxMessageBytes(admin, sinks);
    }

    private static List<String> inputsThatExist(List<String> inputs, Set<String> existing, List<NewTopic> created) {
        List<String> exist = new ArrayList<>();
        for (String input : inputs) {
            if (existing.contains(input)
                    || created.stream().anyMatch(t -> t.name().equals(input))) {
                exist.add(input);
            }
        }
        return exist;
    }

    private static void create(Admin admin, Collection<NewTopic> topics)
            throws ExecutionException, InterruptedException {
        if (topics.isEmpty()) {
            return;
        }
        try {
            admin.createTopics(topics).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e; // another instance may have created one meanwhile; anything else is real
            }
        }
        topics.forEach(t -> LOG.info(
                "created topic {} ({} partitions{})",
                t.name(),
                t.numPartitions(),
                t.configs() == null ? "" : ", " + t.configs()));
    }

    /** Each topic's {@code max.message.bytes}, its own or the broker's default. */
    private static Map<String, Integer> maxMessageBytes(Admin admin, Collection<String> topics)
            throws ExecutionException, InterruptedException {
        List<ConfigResource> resources = new ArrayList<>();
        for (String topic : topics) {
            resources.add(new ConfigResource(ConfigResource.Type.TOPIC, topic));
        }
        Map<String, Integer> limits = new HashMap<>();
        if (resources.isEmpty()) {
            return limits;
        }
        Map<ConfigResource, Config> configs = describe(admin, resources);
        configs.forEach((resource, config) -> {
            ConfigEntry entry = config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            if (entry != null && entry.value() != null) {
                limits.put(resource.name(), Integer.parseInt(entry.value()));
            }
        });
        return limits;
    }

    /** A topic created a moment ago may not be known yet to the broker that answers: ask again. */
    private static Map<ConfigResource, Config> describe(Admin admin, List<ConfigResource> resources)
            throws ExecutionException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return admin.describeConfigs(resources).all().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || attempt == DESCRIBE_ATTEMPTS) {
                    throw e;
                }
                Thread.sleep(DESCRIBE_BACKOFF_MS);
            }
        }
    }
}
