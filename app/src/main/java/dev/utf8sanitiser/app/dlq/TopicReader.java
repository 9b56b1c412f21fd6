package dev.utf8sanitiser.app.dlq;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a dead-letter topic once, from its start (or the first record at or after a time) to the
 * end it had when the read began: every partition, committed records only ({@code read_committed},
 * as the sanitiser writes in transactions), with no consumer group, so reading commits nothing and
 * disturbs no one.
 */
public final class TopicReader implements AutoCloseable {
    /** How long a read waits for the brokers before it says they cannot be reached. */
    public static final Duration BROKER_TIMEOUT = Duration.ofSeconds(15);

    private static final Duration POLL = Duration.ofMillis(500);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String servers;

    /** @param clientProperties {@code bootstrap.servers} and the security settings */
    public TopicReader(Properties clientProperties) {
        Properties props = readOnly(clientProperties);
        props.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) BROKER_TIMEOUT.toMillis());
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "utf8-sanitiser-dlq");
        this.servers = String.valueOf(props.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
        this.consumer = new KafkaConsumer<>(props);
    }

    /**
     * {@code clientProperties} with what every reader of dead-letter topics sets: {@code byte[]}
     * deserializers, committed records only, no offset commits, and no topic created by asking for
     * it. A new object; the caller adds its own client id and limits.
     */
    public static Properties readOnly(Properties clientProperties) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Asking for an unknown topic must not create it.
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        return props;
    }

    /** Progress of one read: records read so far of the records there were when it began. */
    @FunctionalInterface
    public interface ProgressListener {
        void onProgress(long read, long total);
    }

    /**
     * Reads {@code topic}, calling {@code each} for every record, in order within each partition,
     * until it returns false or the end is reached.
     *
     * @return true when it read to the end, false when {@code each} stopped it
     * @throws TopicException the topic does not exist or the brokers cannot be reached
     */
    public boolean read(String topic, Optional<Instant> since, Predicate<DeadLetter> each, ProgressListener progress) {
        List<TopicPartition> partitions = partitions(topic);
        // Assigned before their offsets are asked for: the consumer warns of every partition it
        // learns a last stable offset of but does not hold.
        consumer.assign(partitions);
        consumer.resume(partitions); // paused at the end of an earlier read of the same topic
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> start = new HashMap<>(consumer.beginningOffsets(partitions));
        if (since.isPresent()) {
            Map<TopicPartition, Long> times = new HashMap<>();
            partitions.forEach(p -> times.put(p, since.get().toEpochMilli()));
            consumer.offsetsForTimes(times)
                    .forEach((p, found) -> start.put(p, found == null ? end.get(p) : found.offset()));
        }
        List<TopicPartition> remaining = new ArrayList<>();
        long total = 0;
        for (TopicPartition p : partitions) {
            consumer.seek(p, start.get(p));
            if (start.get(p) < end.get(p)) {
                remaining.add(p);
                total += end.get(p) - start.get(p);
            } else {
                consumer.pause(List.of(p)); // nothing to read there
            }
        }
        long read = 0;
        progress.onProgress(0, total);
        while (!remaining.isEmpty()) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                TopicPartition p = new TopicPartition(record.topic(), record.partition());
                if (record.offset() < end.get(p)) {
                    read++;
                    if (!each.test(DeadLetter.of(record))) {
                        progress.onProgress(read, total);
                        return false;
                    }
                }
            }
            // Positions pass transaction markers and aborted records too, so compare positions. A
            // partition read to its end is paused, not unassigned, for the same reason as above.
            List<TopicPartition> done = remaining.stream()
                    .filter(p -> consumer.position(p) >= end.get(p))
                    .toList();
            consumer.pause(done);
            remaining.removeAll(done);
            progress.onProgress(read, total);
        }
        return true;
    }

    /**
     * The record at one offset of one partition; empty when there is none there (before the start,
     * at or past the end, removed by compaction, or in an aborted transaction).
     *
     * @throws TopicException the topic does not exist or the brokers cannot be reached
     */
    public Optional<DeadLetter> fetch(String topic, int partition, long offset) {
        TopicPartition p = new TopicPartition(topic, partition);
        if (!partitions(topic).contains(p)) {
            return Optional.empty();
        }
        consumer.assign(List.of(p));
        consumer.resume(List.of(p));
        long end = consumer.endOffsets(List.of(p)).get(p);
        long start = consumer.beginningOffsets(List.of(p)).get(p);
        if (offset < start || offset >= end) {
            return Optional.empty();
        }
        consumer.seek(p, offset);
        long deadline = System.nanoTime() + BROKER_TIMEOUT.toNanos();
        while (consumer.position(p) < end && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                if (record.offset() == offset) {
                    return Optional.of(DeadLetter.of(record));
                }
                if (record.offset() > offset) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Checks that {@code topic} exists.
     *
     * @throws TopicException it does not, or the brokers do not answer within {@link #BROKER_TIMEOUT}
     */
    public void requireTopic(String topic) {
        partitions(topic);
    }

    /** The partitions of {@code topic}, or empty when it does not exist. */
    public List<TopicPartition> partitionsOf(String topic) {
        try {
            return partitions(topic);
        } catch (TopicException e) {
            if (e.unknownTopic()) {
                return List.of();
            }
            throw e;
        }
    }

    private List<TopicPartition> partitions(String topic) {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic);
        } catch (TimeoutException e) {
            throw unreachable();
        }
        if (infos == null || infos.isEmpty()) {
            throw new TopicException("no topic " + topic + " at " + servers, true);
        }
        return infos.stream()
                .map(info -> new TopicPartition(info.topic(), info.partition()))
                .toList();
    }

    /** What a command says when the brokers do not answer within {@link #BROKER_TIMEOUT}. */
    public TopicException unreachable() {
        return new TopicException(
                "cannot reach the brokers at " + servers + " within " + BROKER_TIMEOUT.toSeconds() + " s", false);
    }

    @Override
    public void close() {
        consumer.close();
    }

    /** A topic that cannot be read: one line for the operator. */
    public static final class TopicException extends RuntimeException {
        private final boolean unknownTopic;

        TopicException(String message, boolean unknownTopic) {
            super(message);
            this.unknownTopic = unknownTopic;
        }

        /** Whether the topic does not exist (rather than the brokers not answering). */
        public boolean unknownTopic() {
            return unknownTopic;
        }
    }
}
