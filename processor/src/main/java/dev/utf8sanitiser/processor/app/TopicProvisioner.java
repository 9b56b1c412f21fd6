package dev.utf8sanitiser.processor.app;

import dev.utf8sanitiser.config.SanitiserConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the output and dead-letter topics of listed input topics before the application starts,
 * with the input's partition count and the broker's default replication: a dynamic sink cannot
 * create them, and a transactional producer waiting for a missing topic fails the application. For
 * an input pattern, topics appear later: the broker's auto-creation or the operator provides them.
 */
final class TopicProvisioner {
    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);

    private TopicProvisioner() {}

    /**
     * @param createInputs also create missing input topics (only on the embedded broker: on a real
     *     cluster a missing input is the operator's mistake, and Kafka Streams says so)
     */
    static void provision(Admin admin, SanitiserConfig config, boolean createInputs)
            throws ExecutionException, InterruptedException {
        List<String> inputs = config.inputTopics();
        if (inputs.isEmpty()) {
            return;
        }
        Set<String> existing = admin.listTopics().names().get();
        Map<String, Integer> wanted = new LinkedHashMap<>();
        for (String input : inputs) {
            int partitions = 1;
            if (existing.contains(input)) {
                TopicDescription description = admin.describeTopics(List.of(input))
                        .allTopicNames()
                        .get()
                        .get(input);
                partitions = description.partitions().size();
            } else if (createInputs) {
                wanted.put(input, partitions);
            }
            wanted.putIfAbsent(config.outputTopicTemplate().render(input), partitions);
            wanted.putIfAbsent(config.dlqTopicTemplate().render(input), partitions);
        }
        List<NewTopic> missing = new ArrayList<>();
        wanted.forEach((name, partitions) -> {
            if (!existing.contains(name)) {
                missing.add(new NewTopic(name, Optional.of(partitions), Optional.empty()));
            }
        });
        if (missing.isEmpty()) {
            return;
        }
        try {
            admin.createTopics(missing).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e; // another instance may have created one meanwhile; anything else is real
            }
        }
        missing.forEach(t -> LOG.info("created topic {} ({} partitions)", t.name(), t.numPartitions()));
    }
}
