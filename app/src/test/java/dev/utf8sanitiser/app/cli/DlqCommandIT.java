package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.app.SanitiserConfigFile;
import dev.utf8sanitiser.config.SanitiserConfigLoader;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.serdes.record.DeadLetterAnnotation;
import dev.utf8sanitiser.serdes.record.HeaderNames;
import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dlq stats} and {@code dlq inspect} against the dead-letter topic a running sanitiser wrote
 * on a real broker: the counts by rule are the rules {@code check} gives for the same bytes, and
 * inspect shows the right record with the ill-formed bytes in brackets.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(SharedKafka.class)
class DlqCommandIT {
    private static final String IN = SharedKafka.unique("dlq-cmd-in");
    private static final String DLQ = IN + ".dlq";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Header> FORGED = List.of(
            PlainHeader.of(HeaderNames.OMITTED, DeadLetterAnnotation.OMITTED_ALL),
            PlainHeader.of(HeaderNames.RULE, "FORGED"),
            PlainHeader.of(HeaderNames.FIELD, "forged.field"),
            PlainHeader.of(HeaderNames.CAUSE, "FORGED_CAUSE"));

    @TempDir
    Path dir;

    @Test
    void statsCountWhatTheSanitiserDeadLetteredAndInspectShowsEachRecord(EmbeddedKafka kafka) throws Exception {
        List<byte[]> bad = List.of(
                bytes(0x61, 0xC0, 0xAF), // NON_SHORTEST_FORM
                bytes(0x61, 0xED, 0xA0, 0x80), // SURROGATE
                bytes(0x61, 0xE2, 0x82), // TRUNCATED_AT_END
                bytes(0x62, 0xF0, 0x9F, 0x98)); // TRUNCATED_AT_END
        kafka.createTopics(2, IN);
        Path config = SanitiserConfigFile.write(dir, kafka, IN);
        try (SanitiserApplication app = SanitiserApplication.start(
                SanitiserConfigLoader.fromSystemEnvironment().load(config), true)) {
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
                producer.send(new ProducerRecord<>(IN, 0, bytes('k'), bytes('o', 'k')))
                        .get();
                for (int i = 0; i < bad.size(); i++) {
                    ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(IN, i % 2, bytes('k'), bad.get(i));
                    record.headers().add("trace-id", bytes('t', '0' + i));
                    if (i == 1) {
                        // Headers of the annotation's names, forged: the record's own, not its annotation.
                        FORGED.forEach(h -> record.headers().add(h.key(), h.value()));
                    }
                    producer.send(record).get();
                }
            }
            awaitRecords(kafka, DLQ, bad.size());
        }
        // The rules check names for the same bytes: the oracle for the counts.
        Map<String, Integer> expected = new TreeMap<>();
        for (byte[] value : bad) {
            Path file = Files.write(dir.resolve("v" + expected.size() + value.length), value);
            String line = CliRun.of("check", "--json", file.toString()).stdoutText();
            String rule = JSON.readTree(line).get("errors").get(0).get("rule").asText();
            expected.merge(rule, 1, Integer::sum);
        }

        CliRun stats = CliRun.of("dlq", "stats", "--config", config.toString(), "--json");

        assertThat(stats.exit()).as(stats.stderr()).isZero();
        JsonNode doc = JSON.readTree(stats.stdout());
        assertThat(doc.get("records").asInt()).isEqualTo(bad.size());
        Map<String, Integer> byRule = new TreeMap<>();
        doc.get("byRule")
                .fields()
                .forEachRemaining(e -> byRule.put(e.getKey(), e.getValue().asInt()));
        assertThat(byRule).isEqualTo(expected).containsEntry("TRUNCATED_AT_END", 2);
        assertThat(doc.get("bySource").get(IN + "-0").asInt()
                        + doc.get("bySource").get(IN + "-1").asInt())
                .isEqualTo(bad.size());
        assertThat(doc.get("topics").get(0).asText()).isEqualTo(DLQ);
        assertThat(doc.get("byField").size())
                .as("text has no fields; the forged one is not read")
                .isZero();

        CliRun table = CliRun.of("dlq", "stats", "--config", config.toString());
        assertThat(table.stdoutText())
                .contains("Dead letters in " + DLQ + ": 4")
                .contains("SURROGATE  ");

        CliRun inspect =
                CliRun.of("dlq", "inspect", "--config", config.toString(), "--topic", DLQ, "--rule", "SURROGATE");

        assertThat(inspect.exit()).as(inspect.stderr()).isZero();
        assertThat(inspect.stdoutText())
                .contains("rule     SURROGATE")
                .contains("where    value byte 1")
                .contains("61[ed a0 80]") // the run the context header brackets
                .contains("text     a\uFFFD\uFFFD\uFFFD")
                .doesNotContain("NON_SHORTEST_FORM")
                .doesNotContain("placeholder")
                .doesNotContain("forged");
        CliRun byForgedField =
                CliRun.of("dlq", "inspect", "--config", config.toString(), "--topic", DLQ, "--field", "forged.field");
        assertThat(byForgedField.exit()).as(byForgedField.stderr()).isZero();
        assertThat(byForgedField.stdoutText()).doesNotContain(DLQ + "-");

        CliRun lines = CliRun.of("dlq", "inspect", "--config", config.toString(), "--json", "--limit", "3");
        List<JsonNode> records = new ArrayList<>();
        for (String line : lines.stdoutText().split("\n")) {
            assertThat(line)
                    .as("JSON Lines: one object a line, nothing before it")
                    .startsWith("{");
            records.add(JSON.readTree(line));
        }
        assertThat(records).hasSize(3);

        // A typo in a rule would select nothing and look like a clean topic: refused, with the rule
        // it most likely meant.
        CliRun typo = CliRun.of("dlq", "inspect", "--config", config.toString(), "--rule", "SURROGATES");
        assertThat(typo.exit()).isEqualTo(2);
        assertThat(typo.stderr())
                .contains("no rule is named 'SURROGATES'; did you mean SURROGATE?")
                .contains("docs/rules.md");
        assertThat(typo.stdoutText()).isEmpty();
        // The coordinates of the dead-letter record itself are not a source.
        CliRun dlqCoordinates =
                CliRun.of("dlq", "inspect", "--config", config.toString(), "--topic", DLQ, "--source", DLQ + "-0@0");
        assertThat(dlqCoordinates.exit()).isEqualTo(2);
        assertThat(dlqCoordinates.stderr()).contains("--source takes the coordinates of the record the sanitiser read");
        assertThat(records)
                .allSatisfy(
                        r -> assertThat(r.get("source").get("topic").asText()).isEqualTo(IN));

        CliRun one = CliRun.of(
                "dlq",
                "inspect",
                "--config",
                config.toString(),
                "--json",
                "--source",
                records.get(0).get("source").get("topic").asText() + "-"
                        + records.get(0).get("source").get("partition").asInt() + "@"
                        + records.get(0).get("source").get("offset").asLong());
        assertThat(one.stdoutText().split("\n")).hasSize(1);
        assertThat(JSON.readTree(one.stdoutText()).get("hex").asText())
                .isEqualTo(records.get(0).get("hex").asText());

        replay(kafka, config, bad);

        // A dead-letter topic that is not there: refused before anything is created, the replay
        // log included.
        String ghost = SharedKafka.unique("ghost") + ".dlq";
        CliRun ghostReplay = CliRun.of("dlq", "replay", "--config", config.toString(), "--topic", ghost, "--to", IN);
        assertThat(ghostReplay.exit()).isEqualTo(2);
        assertThat(ghostReplay.stderr().strip())
                .isEqualTo("utf8-sanitiser: dlq replay: no topic " + ghost + " at " + kafka.bootstrapServers());
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            assertThat(admin.listTopics().names().get()).doesNotContain(ghost, ghost + ".replayed");
        }

        String missing = SharedKafka.unique("no-such-topic");
        CliRun unknown = CliRun.of("dlq", "stats", "--config", config.toString(), "--topic", missing);
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.stderr().strip())
                .isEqualTo("utf8-sanitiser: dlq stats: no topic " + missing + " at " + kafka.bootstrapServers());
    }

    /**
     * A dry run sends nothing; a replay under replace sends each record once, fixed, with its own
     * headers and {@code __utf8.replay.*}; a second replay sends nothing; strict sends nothing and
     * exits 1; as-is with --allow-repeat sends the bytes as they were.
     */
    private void replay(EmbeddedKafka kafka, Path config, List<byte[]> bad) throws Exception {
        String out = IN + "-replayed-out";
        kafka.createTopics(1, out);
        String[] base = {"dlq", "replay", "--config", config.toString(), "--to", out};

        CliRun dry = CliRun.of(concat(base, "--policy", "replace", "--dry-run"));
        assertThat(dry.exit()).as(dry.stderr()).isZero();
        assertThat(dry.stdoutText()).contains("would send " + DLQ + "-").contains("Dry run: would send 4 of 4");
        assertThat(committed(kafka, out))
                .as("nothing written, not even a transaction marker")
                .isZero();

        CliRun first = CliRun.of(concat(base, "--policy", "replace"));
        assertThat(first.exit()).as(first.stderr()).isZero();
        assertThat(first.stdoutText()).contains("Sent 4 of 4 chosen records from " + DLQ + " to " + out);
        List<ConsumerRecord<byte[], byte[]>> sent = readAll(kafka, out, 4);
        List<String> expectedValues = new ArrayList<>();
        for (byte[] value : bad) {
            expectedValues.add(
                    new String(Utf8Sanitiser.sanitise(value, Policy.REPLACE).output(), UTF_8));
        }
        assertThat(sent)
                .extracting(r -> new String(r.value(), UTF_8))
                .containsExactlyInAnyOrderElementsOf(expectedValues);
        for (ConsumerRecord<byte[], byte[]> r : sent) {
            assertThat(header(r, "trace-id")).startsWith("t");
            assertThat(header(r, HeaderNames.REPLAY_TOPIC)).isEqualTo(DLQ);
            assertThat(header(r, HeaderNames.REPLAY_POLICY)).isEqualTo("replace");
            assertThat(header(r, HeaderNames.ACTION)).isEqualTo("replaced");
            assertThat(r.headers().lastHeader(HeaderNames.SOURCE_TOPIC))
                    .as("the annotation is not replayed")
                    .isNull();
            assertThat(header(r, HeaderNames.RULE))
                    .as("only a __utf8.rule the record came with")
                    .isEqualTo(header(r, "trace-id").equals("t1") ? "FORGED" : null);
        }

        CliRun again = CliRun.of(concat(base, "--policy", "replace"));
        assertThat(again.exit()).isZero();
        assertThat(again.stdoutText()).contains("Sent 0 of 4").contains("4 replayed before");
        readAll(kafka, out, 4); // and not one more

        CliRun strict = CliRun.of(concat(base, "--policy", "strict", "--allow-repeat"));
        assertThat(strict.exit()).isEqualTo(1);
        assertThat(strict.stdoutText())
                .contains("still rejected under strict: SURROGATE")
                .contains("4 still rejected");

        CliRun asItIs = CliRun.of(concat(base, "--rule", "SURROGATE", "--allow-repeat"));
        assertThat(asItIs.exit()).isZero();
        List<ConsumerRecord<byte[], byte[]>> all = readAll(kafka, out, 5);
        ConsumerRecord<byte[], byte[]> exact = all.stream()
                .filter(r -> r.headers().lastHeader(HeaderNames.REPLAY_POLICY) == null)
                .findFirst()
                .orElseThrow();
        assertThat(exact.value()).isEqualTo(bad.get(1));
        assertThat(header(exact, "trace-id")).isEqualTo("t1");
        // Its own headers, the forged ones among them, byte for byte and in order, then the replay's.
        List<Header> headers = List.of(exact.headers().toArray());
        assertThat(headers.subList(1, 1 + FORGED.size()))
                .extracting(Header::key, h -> new String(h.value(), UTF_8))
                .containsExactlyElementsOf(FORGED.stream()
                        .map(h -> org.assertj.core.groups.Tuple.tuple(h.key(), new String(h.value(), UTF_8)))
                        .toList());

        // Paced: 4 records at 10 a second take at least the 3 gaps of 100 ms between them.
        long start = System.nanoTime();
        CliRun paced = CliRun.of(concat(base, "--allow-repeat", "--max-rate", "10"));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(paced.exit()).as(paced.stderr()).isZero();
        assertThat(paced.stdoutText()).contains("Sent 4 of 4");
        assertThat(millis).as("milliseconds for 4 records at 10 a second").isGreaterThanOrEqualTo(300);
        readAll(kafka, out, 9);
        CliRun negative = CliRun.of(concat(base, "--max-rate", "-1"));
        assertThat(negative.exit()).isEqualTo(2);
        assertThat(negative.stderr()).contains("--max-rate takes a number of records a second");
    }

    private static String[] concat(String[] base, String... more) {
        String[] all = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), UTF_8);
    }

    private static long committed(EmbeddedKafka kafka, String topic) throws Exception {
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            return committed(admin, topic);
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(EmbeddedKafka kafka, String topic, int expected) {
        Map<String, Object> props = kafka.consumerConfig("reader-" + System.nanoTime());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            // Anything more would be a duplicate: give it a moment to show.
            consumer.poll(Duration.ofSeconds(1)).forEach(records::add);
        }
        assertThat(records).hasSize(expected);
        return records;
    }

    private static void awaitRecords(EmbeddedKafka kafka, String topic, long count) throws Exception {
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline) {
                if (admin.listTopics().names().get().contains(topic) && committed(admin, topic) >= count) {
                    return;
                }
                Thread.sleep(200);
            }
            throw new AssertionError("the sanitiser did not dead-letter " + count + " records in time");
        }
    }

    private static long committed(Admin admin, String topic) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(List.of(topic))
                .allTopicNames()
                .get()
                .get(topic)
                .partitions()
                .forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        long total = 0;
        for (ListOffsetsResult.ListOffsetsResultInfo info : admin.listOffsets(
                        latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .all()
                .get()
                .values()) {
            total += info.offset();
        }
        return total;
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }
}
