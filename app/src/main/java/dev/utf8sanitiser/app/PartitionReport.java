package dev.utf8sanitiser.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * What {@link PartitionMonitor} saw of the output and dead-letter partitions: those without a
 * leader and those with fewer in-sync replicas than {@code min.insync.replicas} cannot take the
 * sanitiser's writes; those with fewer in-sync replicas than replicas (but enough) can, one more
 * failure away from not. Each list holds {@code topic-partition} names, sorted.
 */
record PartitionReport(List<String> leaderless, List<String> underMinIsr, List<String> underReplicated) {
    static final PartitionReport NONE = new PartitionReport(List.of(), List.of(), List.of());

    /** How many partitions a line names of each kind before it says "and N more". */
    private static final int NAMED = 5;

    static PartitionReport of(Map<String, TopicDescription> topics, Map<String, Integer> minInsyncReplicas) {
        List<String> leaderless = new ArrayList<>();
        List<String> underMinIsr = new ArrayList<>();
        List<String> underReplicated = new ArrayList<>();
        for (TopicDescription topic : topics.values()) {
            int minIsr = minInsyncReplicas.getOrDefault(topic.name(), 1);
            for (TopicPartitionInfo info : topic.partitions()) {
                String name = topic.name() + "-" + info.partition();
                int isr = info.isr().size();
                if (info.leader() == null || info.leader().isEmpty()) {
                    leaderless.add(name);
                } else if (isr < minIsr) {
                    underMinIsr.add(name + " (" + isr + " in sync of " + minIsr + " required)");
                } else if (isr < info.replicas().size()) {
                    underReplicated.add(
                            name + " (" + isr + " of " + info.replicas().size() + " in sync)");
                }
            }
        }
        leaderless.sort(null);
        underMinIsr.sort(null);
        underReplicated.sort(null);
        return new PartitionReport(List.copyOf(leaderless), List.copyOf(underMinIsr), List.copyOf(underReplicated));
    }

    boolean isClear() {
        return leaderless.isEmpty() && underMinIsr.isEmpty() && underReplicated.isEmpty();
    }

    /** Empty when every partition can take writes; else the reason, for {@code /health/ready}. */
    Optional<String> unwritable() {
        if (leaderless.isEmpty() && underMinIsr.isEmpty()) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        if (!leaderless.isEmpty()) {
            parts.add(leaderless.size() + " without a leader: " + named(leaderless));
        }
        if (!underMinIsr.isEmpty()) {
            parts.add(underMinIsr.size() + " with fewer in-sync replicas than min.insync.replicas: "
                    + named(underMinIsr));
        }
        return Optional.of("output partitions cannot take writes, " + String.join("; ", parts));
    }

    /** One line for the log. */
    String describe() {
        String under = underReplicated.isEmpty()
                ? ""
                : underReplicated.size() + " under-replicated: " + named(underReplicated);
        return unwritable()
                .map(reason -> reason + (under.isEmpty() ? "" : "; " + under)
                        + ". Records for them wait (Kafka Streams retries) and /health/ready answers 503 until"
                        + " they recover")
                .orElse("output partitions still take writes, " + under + "; one more broker failure may stop them");
    }

    private static String named(List<String> partitions) {
        String named = partitions.stream().limit(NAMED).collect(Collectors.joining(", "));
        return partitions.size() > NAMED ? named + " and " + (partitions.size() - NAMED) + " more" : named;
    }
}
