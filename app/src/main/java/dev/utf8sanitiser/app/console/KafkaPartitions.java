package dev.utf8sanitiser.app.console;

import dev.utf8sanitiser.app.dlq.DeadLetter;
import dev.utf8sanitiser.app.dlq.TopicReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The consumer the console's lists and exports read with: committed records only, no consumer
 * group, one partition at a time from a given offset, at most {@link #MAX_POLL_RECORDS} records and
 * {@link #MAX_FETCH_BYTES} a fetch, so that what one request holds at once is bounded. One request
 * reads at a time (the caller holds it).
 */
final class KafkaPartitions implements AutoCloseable {
    static final int MAX_POLL_RECORDS = 500;
    static final int MAX_FETCH_BYTES = 8 * 1024 * 1024;
    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String servers;

    KafkaPartitions(Properties clientProperties) {
        Properties props = TopicReader.readOnly(clientProperties);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, MAX_FETCH_BYTES);
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TopicReader.BROKER_TIMEOUT.toMillis());
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "utf8-sanitiser-console-pages");
        this.servers = String.valueOf(props.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
        this.consumer = new KafkaConsumer<>(props);
    }

    /**
     * {@code topic} as a pager reads it, for one request: its partitions and their ends are asked
     * for once, when first needed.
     *
     * @throws TopicReader.TopicException (through {@link Console}) the brokers do not answer
     */
    PartitionReader of(String topic) {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic);
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot reach the brokers at " + servers, e);
        }
        List<TopicPartition> all = infos == null
                ? List.of()
                : infos.stream()
                        .map(i -> new TopicPartition(topic, i.partition()))
                        .sorted((a, b) -> Integer.compare(a.partition(), b.partition()))
                        .toList();
        return new Reader(topic, all);
    }

    private final class Reader implements PartitionReader {
        private final String topic;
        private final List<TopicPartition> all;
        private Map<TopicPartition, Long> starts;
        private Map<TopicPartition, Long> ends;
        private final Map<Integer, Long> atTimes = new HashMap<>();

        Reader(String topic, List<TopicPartition> all) {
            this.topic = topic;
            this.all = all;
        }

        @Override
        public List<Integer> partitions() {
            return all.stream().map(TopicPartition::partition).toList();
        }

        @Override
        public long start(int partition) {
            if (starts == null) {
                starts = consumer.beginningOffsets(all);
            }
            return starts.getOrDefault(new TopicPartition(topic, partition), 0L);
        }

        @Override
        public long end(int partition) {
            if (ends == null) {
                consumer.assign(all); // the last stable offsets are known of assigned partitions only
                ends = consumer.endOffsets(all);
            }
            return ends.getOrDefault(new TopicPartition(topic, partition), 0L);
        }

        @Override
        public long offsetAt(int partition, Instant time) {
            return atTimes.computeIfAbsent(partition, p -> {
                TopicPartition tp = new TopicPartition(topic, p);
                OffsetAndTimestamp found = consumer.offsetsForTimes(Map.of(tp, time.toEpochMilli()))
                        .get(tp);
                return found == null ? end(p) : found.offset();
            });
        }

        @Override
        public Batch read(int partition, long from, long end) {
            TopicPartition tp = new TopicPartition(topic, partition);
            // Kept where the last read stopped when this read goes on from there: its fetched
            // records are used rather than fetched again.
            if (!consumer.assignment().equals(java.util.Set.of(tp)) || consumer.position(tp) != from) {
                consumer.assign(List.of(tp));
                consumer.seek(tp, from);
            }
            List<DeadLetter> records = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL).records(tp)) {
                if (record.offset() >= end) {
                    break;
                }
                records.add(DeadLetter.of(record));
            }
            long next = records.isEmpty()
                    ? consumer.position(tp)
                    : records.get(records.size() - 1).offset() + 1;
            return new Batch(records, Math.min(Math.max(next, from), end));
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
