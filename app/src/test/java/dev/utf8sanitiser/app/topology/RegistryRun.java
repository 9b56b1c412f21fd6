package dev.utf8sanitiser.app.topology;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;

/**
 * The set-up the end-to-end tests of the payload formats share: the application's configuration
 * on the shared broker (and a schema registry, for the formats that need one), and reading its
 * clean and dead-letter topics back, each record once.
 */
final class RegistryRun {
    private RegistryRun() {}

    /**
     * A run of {@code format} under {@code policy} reading {@code input} from the earliest offset,
     * committing every 200 ms, with no HTTP server; {@code overrides} last.
     */
    static SanitiserConfig config(
            EmbeddedKafka kafka,
            Optional<String> registryUrl,
            String input,
            String policy,
            String format,
            String applicationId,
            Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", input);
        props.put("sanitiser.policy", policy);
        props.put("sanitiser.payload.format", format);
        props.put("sanitiser.http.port", "-1");
        registryUrl.ifPresent(url -> props.put("schema.registry.url", url));
        props.put("application.id", applicationId);
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("replication.factor", "1");
        props.put("commit.interval.ms", "200");
        props.put("consumer.auto.offset.reset", "earliest");
        props.putAll(overrides);
        return new SanitiserConfig(props);
    }

    /** As {@link #consumeUntil(Map, int, String, String, Map, Map)}, read_committed, a new group. */
    static void consumeUntil(
            EmbeddedKafka kafka,
            int expected,
            String cleanTopic,
            String deadTopic,
            Map<String, ConsumerRecord<byte[], byte[]>> clean,
            Map<String, ConsumerRecord<byte[], byte[]>> dead) {
        Map<String, Object> config = kafka.consumerConfig("verifier-" + cleanTopic);
        config.put("isolation.level", "read_committed");
        consumeUntil(config, expected, cleanTopic, deadTopic, clean, dead);
    }

    /**
     * Reads both topics into {@code clean} and {@code dead} by key until {@code expected} records
     * (90 s at most), then 2 s more; fails on a duplicate.
     */
    static void consumeUntil(
            Map<String, Object> config,
            int expected,
            String cleanTopic,
            String deadTopic,
            Map<String, ConsumerRecord<byte[], byte[]>> clean,
            Map<String, ConsumerRecord<byte[], byte[]>> dead) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(cleanTopic, deadTopic));
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            List<String> duplicates = new ArrayList<>();
            while (clean.size() + dead.size() < expected && System.nanoTime() < deadline) {
                collect(consumer.poll(Duration.ofMillis(250)), cleanTopic, clean, dead, duplicates);
            }
            // A little longer: a duplicate arriving late would still be caught.
            collect(consumer.poll(Duration.ofSeconds(2)), cleanTopic, clean, dead, duplicates);
            assertThat(duplicates).as("duplicates").isEmpty();
        }
    }

    private static void collect(
            Iterable<ConsumerRecord<byte[], byte[]>> records,
            String cleanTopic,
            Map<String, ConsumerRecord<byte[], byte[]>> clean,
            Map<String, ConsumerRecord<byte[], byte[]>> dead,
            List<String> duplicates) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String key = new String(r.key(), UTF_8);
            if (clean.containsKey(key) || dead.containsKey(key)) {
                duplicates.add(r.topic() + ":" + key);
            }
            (r.topic().equals(cleanTopic) ? clean : dead).put(key, r);
        }
    }

    /** A header's value as UTF-8; null when the record has none. */
    static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), UTF_8);
    }
}
