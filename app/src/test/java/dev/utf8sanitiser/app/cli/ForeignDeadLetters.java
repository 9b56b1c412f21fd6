package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.app.SanitiserConfigFile;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The checks every foreign-producer IT makes on a dead-letter topic another tool wrote on the
 * shared broker: {@code dlq stats}, {@code inspect} (text and JSON) and {@code replay --to-source}
 * run twice, the record arriving byte-exact on its source topic exactly once.
 */
final class ForeignDeadLetters {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the tool's one dead letter must say. */
    record Expected(
            String producer,
            String error,
            String sourceTopic,
            OptionalInt partition,
            long offset,
            byte[] key,
            byte[] value,
            List<Header> ownHeaders) {}

    private ForeignDeadLetters() {}

    /** Waits until {@code topic} holds {@code count} records, and returns them. */
    static List<ConsumerRecord<byte[], byte[]>> await(EmbeddedKafka kafka, String topic, int count, Duration timeout) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        Map<String, Object> config = kafka.consumerConfig("foreign-dlq-" + System.nanoTime());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (records.size() < count && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            // A little longer: more than expected is a failure the caller sees.
            consumer.poll(Duration.ofMillis(500)).forEach(records::add);
        }
        return records;
    }

    /**
     * Runs the commands on {@code dlq}, which holds {@code records} records, one of them (at {@code
     * dlqOffset} of partition 0) the tool's dead letter {@code expected}; the others have no
     * foreign annotation.
     */
    static void check(EmbeddedKafka kafka, Path dir, String dlq, long records, long dlqOffset, Expected expected)
            throws Exception {
        checkWithSkips(kafka, dir, dlq, records, dlqOffset, expected, 0);
    }

    /**
     * As {@link #check}, with {@code unsendable} more records of the same producer, error and source
     * that a replay to the source refuses.
     */
    static void checkWithSkips(
            EmbeddedKafka kafka, Path dir, String dlq, long records, long dlqOffset, Expected expected, int unsendable)
            throws Exception {
        int same = 1 + unsendable;
        Path config = SanitiserConfigFile.write(dir, kafka, expected.sourceTopic());
        String coordinates = expected.sourceTopic()
                + (expected.partition().isPresent() ? "-" + expected.partition().getAsInt() : "");

        CliRun stats = CliRun.of("dlq", "stats", "--config", config.toString(), "--topic", dlq, "--json");
        assertThat(stats.exit()).as(stats.stderr()).isZero();
        JsonNode counts = JSON.readTree(stats.stdout());
        assertThat(counts.get("records").asLong()).isEqualTo(records);
        assertThat(counts.get("byProducer").get(expected.producer()).asLong()).isEqualTo(same);
        assertThat(counts.get("byError")
                        .get(expected.producer() + " " + expected.error())
                        .asLong())
                .isEqualTo(same);
        assertThat(counts.get("bySource").get(coordinates).asLong()).isEqualTo(same);
        CliRun table = CliRun.of("dlq", "stats", "--config", config.toString(), "--topic", dlq);
        assertThat(table.stdoutText()).contains(expected.producer() + " " + expected.error() + "  " + same);

        String[] inspect = {
            "dlq", "inspect", "--config", config.toString(), "--topic", dlq, "--producer", expected.producer()
        };
        CliRun lines = CliRun.of(concat(inspect, "--json"));
        assertThat(lines.exit()).as(lines.stderr()).isZero();
        List<String> jsonLines = lines.stdoutText().lines().toList();
        assertThat(jsonLines).hasSize(same);
        JsonNode line = null;
        for (String each : jsonLines) {
            JsonNode node = JSON.readTree(each);
            if (node.get("offset").asLong() == dlqOffset) {
                line = node;
            }
        }
        assertThat(line).as("the dead letter at " + dlqOffset).isNotNull();
        assertThat(line.get("offset").asLong()).isEqualTo(dlqOffset);
        assertThat(line.get("producer").asText()).isEqualTo(expected.producer());
        assertThat(line.get("error").asText()).isEqualTo(expected.error());
        JsonNode source = line.get("source");
        assertThat(source.get("topic").asText()).isEqualTo(expected.sourceTopic());
        if (expected.partition().isPresent()) {
            assertThat(source.get("partition").asInt())
                    .isEqualTo(expected.partition().getAsInt());
            assertThat(source.get("offset").asLong()).isEqualTo(expected.offset());
        } else {
            assertThat(source.has("partition")).isFalse();
        }
        CliRun text = CliRun.of(inspect);
        assertThat(text.stdoutText())
                .contains("  producer " + expected.producer() + "\n")
                .contains("  error    " + expected.error() + "\n")
                .contains("  source   " + coordinates
                        + (expected.partition().isPresent() ? "@" + expected.offset() : "") + "\n");
        CliRun byRule =
                CliRun.of("dlq", "inspect", "--config", config.toString(), "--topic", dlq, "--rule", "SURROGATE");
        assertThat(byRule.stdoutText()).as("a rule is the sanitiser's").startsWith("No dead letters match");

        String[] replay = {
            "dlq",
            "replay",
            "--config",
            config.toString(),
            "--topic",
            dlq,
            "--to-source",
            "--producer",
            expected.producer()
        };
        CliRun first = CliRun.of(replay);
        assertThat(first.exit()).as(first.stdoutText() + first.stderr()).isEqualTo(unsendable > 0 ? 1 : 0);
        assertThat(first.stdoutText())
                .contains("sent " + dlq + "-0@" + dlqOffset + " -> " + expected.sourceTopic() + " (as it is)")
                .contains("Sent 1 of " + same + " chosen records from " + dlq + " to their source topics")
                .contains(unsendable + " refused.");
        CliRun second = CliRun.of(replay);
        assertThat(second.exit()).as(second.stderr()).isEqualTo(unsendable > 0 ? 1 : 0);
        assertThat(second.stdoutText())
                .contains("Sent 0 of " + same + " chosen records")
                .contains("1 replayed before");

        Predicate<ConsumerRecord<byte[], byte[]>> replayed =
                r -> r.headers().lastHeader(HeaderNames.REPLAY_TOPIC) != null;
        List<ConsumerRecord<byte[], byte[]>> back =
                await(kafka, expected.sourceTopic(), Integer.MAX_VALUE, Duration.ofSeconds(3)).stream()
                        .filter(replayed)
                        .toList();
        assertThat(back).as("exactly once, after two replays").hasSize(1);
        ConsumerRecord<byte[], byte[]> r = back.get(0);
        assertThat(r.key()).isEqualTo(expected.key());
        assertThat(r.value()).isEqualTo(expected.value());
        List<Header> headers = List.of(r.headers().toArray());
        assertThat(headers.subList(0, expected.ownHeaders().size()))
                .extracting(h -> h.key() + "=" + HexFormat.of().formatHex(h.value()))
                .containsExactlyElementsOf(expected.ownHeaders().stream()
                        .map(h -> h.key() + "=" + HexFormat.of().formatHex(h.value()))
                        .toList());
        assertThat(headers.subList(expected.ownHeaders().size(), headers.size()))
                .extracting(Header::key)
                .containsExactly(
                        HeaderNames.REPLAY_TOPIC,
                        HeaderNames.REPLAY_PARTITION,
                        HeaderNames.REPLAY_OFFSET,
                        HeaderNames.REPLAY_COUNT);
        assertThat(new String(r.headers().lastHeader(HeaderNames.REPLAY_TOPIC).value(), UTF_8))
                .isEqualTo(dlq);
        assertThat(new String(r.headers().lastHeader(HeaderNames.REPLAY_OFFSET).value(), UTF_8))
                .isEqualTo(Long.toString(dlqOffset));
        assertThat(new String(r.headers().lastHeader(HeaderNames.REPLAY_COUNT).value(), UTF_8))
                .isEqualTo("1");
    }

    static String[] concat(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
