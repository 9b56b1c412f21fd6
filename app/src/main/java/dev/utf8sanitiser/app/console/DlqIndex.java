package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.TopicReader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the console knows of the dead-letter topics: one thread follows every partition of each
 * topic from its start, committed records only and with no consumer group, and keeps counts (no
 * records: {@link TopicIndex}), so that a page is drawn from memory however large the topic. The
 * topics are asked for again every {@link #REFRESH}, so that a dead-letter topic created after the
 * console started, or a partition added, is followed too.
 */
public final class DlqIndex implements AutoCloseable {
    static final Duration REFRESH = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(DlqIndex.class);
    private static final Duration POLL = Duration.ofMillis(500);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Function<Set<String>, List<String>> topicsOf;
    private final Clock clock;
    private final Map<String, TopicIndex> topics = new LinkedHashMap<>();
    private final Set<TopicPartition> assigned = new HashSet<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile Optional<String> problem = Optional.of("starting");
    private volatile Set<String> names = Set.of();

    /**
     * @param clientProperties {@code bootstrap.servers} and the security settings
     * @param topicsOf the dead-letter topics to follow, given the names of every topic in the cluster
     */
    public DlqIndex(Properties clientProperties, Function<Set<String>, List<String>> topicsOf, Clock clock) {
        Properties props = TopicReader.readOnly(clientProperties);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "utf8-sanitiser-console");
        this.consumer = new KafkaConsumer<>(props);
        this.topicsOf = topicsOf;
        this.clock = clock;
        this.thread = new Thread(this::follow, "utf8-sanitiser-console-index");
        this.thread.setDaemon(true);
    }

    public DlqIndex start() {
        thread.start();
        return this;
    }

    /** An index that is never started, for a console whose pages are tested alone. */
    boolean started() {
        return thread.isAlive();
    }

    /** Why the index may be out of date (the brokers do not answer), or empty. */
    public Optional<String> problem() {
        return problem;
    }

    /** What is known of each followed topic now, in the order they were found. */
    public synchronized List<TopicView> views() {
        Instant now = clock.instant();
        return topics.values().stream().map(t -> t.view(now)).toList();
    }

    /** The names of every topic in the cluster, as last asked for (every {@link #REFRESH}). */
    public Set<String> topicNames() {
        return names;
    }

    /** Whether {@code topic} is one of the topics followed. */
    public synchronized boolean follows(String topic) {
        return topics.containsKey(topic);
    }

    /** What is known of one topic now; empty when it is not followed. */
    public synchronized Optional<TopicView> view(String topic) {
        return Optional.ofNullable(topics.get(topic)).map(t -> t.view(clock.instant()));
    }

    private void follow() {
        long nextRefresh = 0;
        try {
            while (running) {
                if (System.nanoTime() - nextRefresh >= 0) {
                    refresh();
                    nextRefresh = System.nanoTime() + REFRESH.toNanos();
                }
                if (assigned.isEmpty()) {
                    Thread.sleep(POLL.toMillis());
                    continue;
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    DeadLetter letter = DeadLetter.of(record);
                    synchronized (this) {
                        topics.get(record.topic()).add(letter, clock.instant());
                    }
                }
                for (TopicPartition p : assigned) {
                    try {
                        long position = consumer.position(p, Duration.ZERO);
                        synchronized (this) {
                            topics.get(p.topic()).position(p, position);
                        }
                    } catch (TimeoutException e) {
                        // not known until the first fetch of that partition; the next refresh asks again
                    }
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // closing
        } catch (RuntimeException e) {
            problem = Optional.of("the index stopped: " + e);
            LOG.error("The DLQ console's index stopped; its pages show what it had read", e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Finds the topics and their partitions again, and the end of each partition. */
    private void refresh() {
        try {
            Map<String, List<PartitionInfo>> all = consumer.listTopics(REFRESH);
            names = Set.copyOf(all.keySet());
            List<String> wanted = topicsOf.apply(all.keySet());
            List<TopicPartition> found = new ArrayList<>();
            synchronized (this) {
                for (String topic : wanted) {
                    TopicIndex index = topics.computeIfAbsent(topic, TopicIndex::new);
                    List<PartitionInfo> partitions = all.get(topic);
                    index.exists(partitions != null);
                    if (partitions != null) {
                        partitions.forEach(info -> found.add(new TopicPartition(topic, info.partition())));
                    }
                }
            }
            List<TopicPartition> added =
                    found.stream().filter(p -> !assigned.contains(p)).toList();
            if (!added.isEmpty()) {
                assigned.addAll(added);
                consumer.assign(assigned);
                consumer.seekToBeginning(added);
            }
            Map<TopicPartition, Long> ends = assigned.isEmpty() ? Map.of() : consumer.endOffsets(assigned, REFRESH);
            Map<TopicPartition, Long> positions = new HashMap<>();
            for (TopicPartition p : assigned) {
                positions.put(p, consumer.position(p, REFRESH));
            }
            synchronized (this) {
                ends.forEach((p, end) -> topics.get(p.topic()).end(p, end));
                positions.forEach((p, position) -> topics.get(p.topic()).position(p, position));
            }
            problem = Optional.empty();
        } catch (WakeupException e) {
            throw e;
        } catch (RuntimeException e) {
            problem = Optional.of("cannot reach the brokers: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        running = false;
        if (thread.getState() == Thread.State.NEW) {
            consumer.close(Duration.ZERO);
            return;
        }
        consumer.wakeup();
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
