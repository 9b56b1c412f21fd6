package dev.utf8sanitiser.app.topology;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The verdict of a fault test, key by key: the output (clean and dead-letter topics) against the
 * input read back, so that a record the test's writer wrote twice is expected twice downstream and
 * is not counted as the sanitiser's duplicate.
 */
public final class FaultAccounting {
    /** Input records with no output record: Σ max(0, input copies − output copies). */
    public final int lost;
    /** Output records beyond the input's copies: Σ max(0, output copies − input copies). */
    public final int duplicated;
    /** Input records written more than once by the writer's retries. */
    public final int inputDuplicates;

    public final int misrouted;
    public final int altered;
    /** The lowest {@link #KEYS_SHOWN} keys of lost records, for the failure message. */
    public final List<Integer> lostKeys;

    private static final int KEYS_SHOWN = 20;

    private FaultAccounting(
            int lost, int duplicated, int inputDuplicates, int misrouted, int altered, List<Integer> lostKeys) {
        this.lost = lost;
        this.lostKeys = List.copyOf(lostKeys);
        this.duplicated = duplicated;
        this.inputDuplicates = inputDuplicates;
        this.misrouted = misrouted;
        this.altered = altered;
    }

    public static FaultAccounting of(
            Map<Integer, Integer> input, Map<Integer, Integer> output, int misrouted, int altered) {
        int lost = 0;
        int duplicated = 0;
        int inputDuplicates = 0;
        List<Integer> lostKeys = new ArrayList<>();
        for (Map.Entry<Integer, Integer> entry : new TreeMap<>(input).entrySet()) { // lowest keys first
            int in = entry.getValue();
            int out = output.getOrDefault(entry.getKey(), 0);
            inputDuplicates += in - 1;
            lost += Math.max(0, in - out);
            if (in > out && lostKeys.size() < KEYS_SHOWN) {
                lostKeys.add(entry.getKey());
            }
            duplicated += Math.max(0, out - in);
        }
        for (Map.Entry<Integer, Integer> entry : output.entrySet()) {
            if (!input.containsKey(entry.getKey())) {
                duplicated += entry.getValue(); // output of no input at all: cannot happen, but count it
            }
        }
        return new FaultAccounting(lost, duplicated, inputDuplicates, misrouted, altered, lostKeys);
    }

    /** Reads {@code topic} from its beginning to its end and counts the copies of each key. */
    public static Map<Integer, Integer> countInput(Map<String, Object> consumerConfig, String topic, int partitions) {
        Map<String, Object> config = new HashMap<>(consumerConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        List<TopicPartition> assigned = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            assigned.add(new TopicPartition(topic, p));
        }
        Map<Integer, Integer> copies = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            Map<TopicPartition, Long> end = consumer.endOffsets(assigned, Duration.ofSeconds(60));
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (!reached(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end " + end);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    copies.merge(Integer.parseInt(new String(record.key(), UTF_8)), 1, Integer::sum);
                }
            }
        }
        return copies;
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> entry : end.entrySet()) {
            if (consumer.position(entry.getKey()) < entry.getValue()) {
                return false;
            }
        }
        return true;
    }
}
