package dev.utf8sanitiser.app.cli;

import dev.utf8sanitiser.testkit.KafkaCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The set-up the fault tests on a {@link KafkaCluster} share: a {@code run} configuration for the
 * cluster, a producer that waits for a broker that is away, and a reader that sees only committed
 * records.
 */
final class ClusterRun {
    private ClusterRun() {}

    /**
     * Writes the configuration of a {@code run} that reads {@code input} from the cluster, with
     * replication factor 3 and from the earliest offset; {@code httpPort} -1 for no HTTP server.
     */
    static Path config(Path file, KafkaCluster cluster, String input, int httpPort) throws Exception {
        return Files.write(
                file,
                List.of(
                        "application.id=" + input,
                        "bootstrap.servers=" + cluster.bootstrapServers(),
                        "sanitiser.input.topics=" + input,
                        "sanitiser.http.port=" + httpPort,
                        "replication.factor=3",
                        "consumer.auto.offset.reset=earliest"));
    }

    /** Sends records {@code from} (inclusive) to {@code to} (exclusive), waiting up to 120 s each. */
    static void send(
            KafkaCluster cluster, String topic, int from, int to, IntFunction<byte[]> key, IntFunction<byte[]> value) {
        Map<String, Object> config = cluster.producerConfig();
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(topic, key.apply(i), value.apply(i)));
            }
            producer.flush();
        }
    }

    /** Partitions 0 to {@code count - 1} of {@code topic}. */
    static List<TopicPartition> partitions(String topic, int count) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        return partitions;
    }

    /**
     * Reads {@code partitions} from the beginning under read_committed, without a group, and
     * gives each record to {@code each} until {@code stop} is set.
     */
    static void read(
            KafkaCluster cluster,
            List<TopicPartition> partitions,
            AtomicBoolean stop,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Map<String, Object> config = cluster.consumerConfig("unused");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (!stop.get()) {
                consumer.poll(Duration.ofMillis(200)).forEach(each);
            }
        }
    }
}
