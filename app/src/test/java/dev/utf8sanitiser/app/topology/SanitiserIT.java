package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.core.Policy;
import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Sanitiser;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sanitiser on a real single-node KRaft broker, exactly-once: every input record comes out
 * exactly once, in exactly one of the output and dead-letter topics, read with read_committed.
 */
class SanitiserIT {
    private static final int ONE_MIB = 1 << 20;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.builder()
                .brokerProperty("message.max.bytes", Integer.toString(3 * ONE_MIB))
                .start();
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    /** The mixed stream: one input record each, numbered by its key. */
    static List<ProducerRecord<byte[], byte[]>> mixedStream(String topic) {
        List<byte[]> values = new ArrayList<>();
        values.add("plain ASCII".getBytes(StandardCharsets.US_ASCII));
        values.add("Καλημέρα, 世界, 😀".getBytes(StandardCharsets.UTF_8));
        values.add(new byte[0]);
        values.add(bytes(0x2F, 0xC0, 0xAF)); // overlong slash
        values.add(bytes(0x61, 0xED, 0xA0, 0x80)); // lone surrogate
        values.add(bytes(0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80)); // CESU-8 pair for U+1F600
        values.add(bytes(0xF4, 0x90, 0x80, 0x80)); // above U+10FFFF
        values.add(bytes(0x41, 0xFF)); // never used
        values.add(bytes(0x80, 0x41)); // stray continuation
        values.add(bytes(0x63, 0x61, 0x66, 0xE9, 0x21)); // Latin-1
        values.add(bytes(0x41, 0xE2, 0x82)); // truncated at the end
        values.add(bytes(0xC0, 0x80)); // Modified UTF-8 NUL
        byte[] bigGood = new byte[ONE_MIB];
        Arrays.fill(bigGood, (byte) 'x');
        values.add(bigGood);
        byte[] bigBad = bigGood.clone();
        bigBad[ONE_MIB - 100] = (byte) 0xC1;
        values.add(bigBad);
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            byte[] noise = new byte[1 + random.nextInt(64)];
            random.nextBytes(noise);
            values.add(random.nextBoolean() ? noise : ("record " + i).getBytes(StandardCharsets.UTF_8));
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        // Recent timestamps: the broker's 7-day retention would delete older records mid-test.
        long now = System.currentTimeMillis();
        for (int i = 0; i < values.size(); i++) {
            RecordHeaders headers = new RecordHeaders();
            headers.add("origin", bytes(0xFE, i & 0xFF)); // an ill-formed header that is not checked
            records.add(new ProducerRecord<>(
                    topic, null, now + i, Integer.toString(i).getBytes(), values.get(i), headers));
        }
        return records;
    }

    @Test
    void strictExactlyOnceEveryRecordLandsOnceInOutputOrDeadLetterByteExact() throws Exception {
        String in = "mixed-strict";
        kafka.createTopics(2, in);
        List<ProducerRecord<byte[], byte[]>> sent = mixedStream(in);
        produce(sent);

        try (SanitiserApplication app = SanitiserApplication.start(config(in, "strict", "it-strict"), false)) {
            Map<String, ConsumerRecord<byte[], byte[]>> clean = new HashMap<>();
            Map<String, ConsumerRecord<byte[], byte[]>> dead = new HashMap<>();
            consumeUntil(sent.size(), in + ".clean", in + ".dlq", clean, dead);

            assertThat(clean.size() + dead.size()).isEqualTo(sent.size());
            for (ProducerRecord<byte[], byte[]> record : sent) {
                String key = new String(record.key());
                boolean wellFormed = Utf8Validator.isWellFormed(record.value());
                assertThat(clean.containsKey(key) ^ dead.containsKey(key))
                        .as("record %s in exactly one", key)
                        .isTrue();
                ConsumerRecord<byte[], byte[]> out = wellFormed ? clean.get(key) : dead.get(key);
                assertThat(out).as("record %s where it belongs", key).isNotNull();
                assertThat(out.value()).isEqualTo(record.value());
                assertThat(out.timestamp()).isEqualTo(record.timestamp());
                Header origin = out.headers().headers("origin").iterator().next();
                assertThat(origin.value())
                        .isEqualTo(record.headers().lastHeader("origin").value());
                if (!wellFormed) {
                    Utf8Error first = Utf8Validator.firstError(record.value()).orElseThrow();
                    assertThat(header(out, "__utf8.rule"))
                            .isEqualTo(first.rule().name());
                    assertThat(header(out, "__utf8.offset")).isEqualTo(Long.toString(first.offset()));
                    assertThat(header(out, "__utf8.errors"))
                            .isEqualTo(Integer.toString(
                                    Utf8Validator.errors(record.value()).size()));
                    assertThat(header(out, "__utf8.source.topic")).isEqualTo(in);
                    assertThat(header(out, "__utf8.source.partition")).isEqualTo(Integer.toString(out.partition()));
                }
            }
            assertThat(dead.get("13").value()).hasSize(ONE_MIB);
            assertThat(header(dead.get("13"), "__utf8.offset")).isEqualTo(Integer.toString(ONE_MIB - 100));
        }
    }

    @Test
    void replaceSendsEveryRecordDownstreamFixed() throws Exception {
        String in = "mixed-replace";
        kafka.createTopics(1, in);
        List<ProducerRecord<byte[], byte[]>> sent = mixedStream(in);
        produce(sent);

        try (SanitiserApplication app = SanitiserApplication.start(config(in, "replace", "it-replace"), false)) {
            Map<String, ConsumerRecord<byte[], byte[]>> clean = new HashMap<>();
            Map<String, ConsumerRecord<byte[], byte[]>> dead = new HashMap<>();
            consumeUntil(sent.size(), in + ".clean", in + ".dlq", clean, dead);
            assertThat(dead).isEmpty();
            for (ProducerRecord<byte[], byte[]> record : sent) {
                ConsumerRecord<byte[], byte[]> out = clean.get(new String(record.key()));
                assertThat(out.value())
                        .isEqualTo(Utf8Sanitiser.sanitise(record.value(), Policy.REPLACE)
                                .output());
                boolean changed = !Utf8Validator.isWellFormed(record.value());
                assertThat(out.headers().lastHeader("__utf8.action") != null).isEqualTo(changed);
            }
        }
    }

    private static SanitiserConfig config(String input, String policy, String applicationId) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", input);
        props.put("sanitiser.policy", policy);
        props.put("sanitiser.http.port", "-1");
        props.put("application.id", applicationId);
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("replication.factor", "1");
        props.put("commit.interval.ms", "200");
        props.put("producer.max.request.size", Integer.toString(3 * ONE_MIB));
        props.put("consumer.auto.offset.reset", "earliest");
        return new SanitiserConfig(props);
    }

    private static void produce(List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Map<String, Object> config = kafka.producerConfig();
        config.put("max.request.size", 3 * ONE_MIB);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (ProducerRecord<byte[], byte[]> record : records) {
                producer.send(record).get();
            }
        }
    }

    private static void consumeUntil(
            int expected,
            String cleanTopic,
            String deadTopic,
            Map<String, ConsumerRecord<byte[], byte[]>> clean,
            Map<String, ConsumerRecord<byte[], byte[]>> dead) {
        Map<String, Object> config = kafka.consumerConfig("verifier-" + cleanTopic);
        config.put("isolation.level", "read_committed");
        config.put("max.partition.fetch.bytes", 4 * ONE_MIB);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(cleanTopic, deadTopic));
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            int duplicates = 0;
            while (clean.size() + dead.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    var target = r.topic().equals(cleanTopic) ? clean : dead;
                    if (target.put(new String(r.key()), r) != null) {
                        duplicates++;
                    }
                }
            }
            // A little longer: a duplicate arriving late would still be caught.
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofSeconds(2))) {
                var target = r.topic().equals(cleanTopic) ? clean : dead;
                if (target.put(new String(r.key()), r) != null) {
                    duplicates++;
                }
            }
            assertThat(duplicates).as("duplicates").isZero();
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(int... values) {
        return SanitiserTopologyTest.bytes(values);
    }
}
