package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Records at the real limits, on a real broker with its defaults (a record takes at most 1 MiB and
 * 12 bytes) and the producer's (1 MiB), exactly-once: a record whose copy would be too large for
 * its topic ends in the dead-letter topic, byte-exact or as a placeholder, and the application
 * keeps running. Before, the first such record failed the send, the transaction and the
 * application, which read it again on restart.
 */
@ExtendWith(SharedKafka.class)
class RecordLimitsIT {
    private static final int RECORD = 1_048_000; // the largest round value a default producer sends
    // Topics, application ids and groups of its own on the shared broker.
    private static final String A = SharedKafka.unique("limits-a");
    private static final String B = SharedKafka.unique("limits-b");
    private static final String C = SharedKafka.unique("limits-c");
    private static final String PATTERN = SharedKafka.unique("pattern");
    private static final String P1 = PATTERN + "-p1";
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void broker(EmbeddedKafka shared) {
        kafka = shared;
    }

    /** A JSON document that is one string of {@code n} bytes of {@code b}. */
    private static byte[] jsonString(int n, int b) {
        byte[] doc = new byte[n + 2];
        Arrays.fill(doc, (byte) b);
        doc[0] = '"';
        doc[n + 1] = '"';
        return doc;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void recordsTooLargeForTheirTopicEndInTheDeadLetterTopicAndTheApplicationKeepsRunning() throws Exception {
        kafka.createTopics(A, B, C);
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            admin.createTopics(List.of(
                            new NewTopic(B + ".dlq", 1, (short) 1).configs(Map.of("max.message.bytes", "262144")),
                            new NewTopic(C + ".clean", 1, (short) 1).configs(Map.of("max.message.bytes", "102400"))))
                    .all()
                    .get();
        }
        byte[] allBad = jsonString(RECORD, 0x80); // replaced: three times as large
        byte[] wellFormed = jsonString(200_000, 'x');
        List<ProducerRecord<byte[], byte[]>> sent = List.of(
                record(A, "a1", allBad),
                record(A, "a2", "\"caf\u00e9\"".getBytes(StandardCharsets.ISO_8859_1)), // Latin-1
                record(A, "a3", utf8("{\"ok\":true}")),
                record(B, "b1", allBad),
                record(B, "b2", utf8("\"ok\"")),
                record(C, "c1", wellFormed),
                record(C, "c2", utf8("\"ok\"")));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (ProducerRecord<byte[], byte[]> record : sent) {
                producer.send(record).get(); // the broker took each one as it is
            }
        }

        try (SanitiserApplication app = SanitiserApplication.start(config(), false)) {
            Map<String, ConsumerRecord<byte[], byte[]>> out = consume(sent.size());
            int outputLimit = maxMessageBytes(A + ".clean");

            ConsumerRecord<byte[], byte[]> a1 = out.get(A + ".dlq/a1");
            assertThat(a1).as("a1 in %s.dlq", A).isNotNull();
            assertThat(a1.value()).isEqualTo(allBad);
            assertThat(header(a1, "__utf8.rule")).isEqualTo("REPLACEMENT_TOO_LARGE");
            assertThat(header(a1, "__utf8.errors")).isEqualTo(Integer.toString(RECORD));
            assertThat(header(a1, "__utf8.offset")).isEqualTo("1");
            assertThat(header(a1, "__utf8.limit")).isEqualTo(Integer.toString(outputLimit));
            assertThat(Long.parseLong(header(a1, "__utf8.size"))).isGreaterThan(3L * RECORD);

            ConsumerRecord<byte[], byte[]> b1 = out.get(B + ".dlq/@0");
            assertThat(b1).as("a placeholder for b1 in %s.dlq", B).isNotNull();
            assertThat(b1.key()).isNull();
            assertThat(b1.value()).isNull();
            assertThat(header(b1, "__utf8.rule")).isEqualTo("RECORD_TOO_LARGE");
            assertThat(header(b1, "__utf8.cause")).isEqualTo("REPLACEMENT_TOO_LARGE");
            assertThat(header(b1, "__utf8.omitted")).isEqualTo("key,value,headers");
            assertThat(header(b1, "__utf8.limit")).isEqualTo("262144");
            assertThat(header(b1, "__utf8.source.topic")).isEqualTo(B);
            assertThat(header(b1, "__utf8.source.offset")).isEqualTo("0");

            ConsumerRecord<byte[], byte[]> c1 = out.get(C + ".dlq/c1");
            assertThat(c1).as("c1 in %s.dlq", C).isNotNull();
            assertThat(c1.value()).isEqualTo(wellFormed);
            assertThat(header(c1, "__utf8.rule")).isEqualTo("RECORD_TOO_LARGE");
            assertThat(header(c1, "__utf8.limit")).isEqualTo("102400");

            assertThat(out.get(A + ".clean/a2").value()).isEqualTo(utf8("\"caf\uFFFD\""));
            assertThat(out).containsKeys(A + ".clean/a3", B + ".clean/b2", C + ".clean/c2");
            assertThat(out).hasSize(sent.size());
            assertThat(app.failed()).isFalse();
            assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
        }
    }

    /**
     * With an input pattern, the limits of the sink topics that exist at start-up are read too:
     * before, only the producer's was known, and the broker refused the dead-letter record.
     */
    @Test
    void aPatternInputKnowsTheLimitsOfTheSinkTopicsThatExist() throws Exception {
        kafka.createTopics(P1);
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            admin.createTopics(List.of(
                            new NewTopic(P1 + ".dlq", 1, (short) 1).configs(Map.of("max.message.bytes", "102400"))))
                    .all()
                    .get();
        }
        byte[] bad = new byte[300_000];
        Arrays.fill(bad, (byte) 'x');
        bad[5] = (byte) 0xFF;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            producer.send(record(P1, "p1", bad)).get();
            producer.send(record(P1, "p2", utf8("ok"))).get();
        }
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.pattern", PATTERN + "-p[0-9]+");
        props.put("sanitiser.http.port", "-1");
        props.put("application.id", PATTERN + "-app");
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("replication.factor", "1");
        props.put("commit.interval.ms", "200");
        props.put("consumer.auto.offset.reset", "earliest");

        try (SanitiserApplication app = SanitiserApplication.start(new SanitiserConfig(props), false)) {
            Map<String, ConsumerRecord<byte[], byte[]>> out =
                    consume(2, List.of(P1 + ".clean", P1 + ".dlq"), PATTERN + "-verifier");

            ConsumerRecord<byte[], byte[]> p1 = out.get(P1 + ".dlq/@0");
            assertThat(p1).as("a placeholder for p1 in %s.dlq", P1).isNotNull();
            assertThat(header(p1, "__utf8.cause")).isEqualTo("INVALID_BYTE");
            assertThat(header(p1, "__utf8.limit")).isEqualTo("102400");
            assertThat(out).containsKey(P1 + ".clean/p2");
            assertThat(app.failed()).isFalse();
            assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
        }
    }

    private static ProducerRecord<byte[], byte[]> record(String topic, String key, byte[] value) {
        return new ProducerRecord<>(topic, null, System.currentTimeMillis(), utf8(key), value);
    }

    private static SanitiserConfig config() {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", A + "," + B + "," + C);
        props.put("sanitiser.policy", "replace");
        props.put("sanitiser.payload.format", "json");
        props.put("sanitiser.http.port", "-1");
        props.put("application.id", A + "-app");
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("replication.factor", "1");
        props.put("commit.interval.ms", "200");
        props.put("consumer.auto.offset.reset", "earliest");
        return new SanitiserConfig(props);
    }

    private static int maxMessageBytes(String topic) throws Exception {
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            return Integer.parseInt(admin.describeConfigs(List.of(resource))
                    .all()
                    .get()
                    .get(resource)
                    .get("max.message.bytes")
                    .value());
        }
    }

    /** Every record of the six sink topics of the first test. */
    private static Map<String, ConsumerRecord<byte[], byte[]>> consume(int expected) {
        List<String> topics = new ArrayList<>();
        for (String in : List.of(A, B, C)) {
            topics.add(in + ".clean");
            topics.add(in + ".dlq");
        }
        return consume(expected, topics, A + "-verifier");
    }

    /**
     * Every record of {@code topics}, read committed, as {@code topic/key}, or {@code topic/@offset}
     * (the source offset) without a key.
     */
    private static Map<String, ConsumerRecord<byte[], byte[]>> consume(
            int expected, List<String> topics, String group) {
        Map<String, Object> config = kafka.consumerConfig(group);
        config.put("isolation.level", "read_committed");
        Map<String, ConsumerRecord<byte[], byte[]>> seen = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(topics);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (seen.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String id = r.key() == null
                            ? "@" + header(r, "__utf8.source.offset")
                            : new String(r.key(), StandardCharsets.UTF_8);
                    assertThat(seen.put(r.topic() + "/" + id, r))
                            .as("a duplicate")
                            .isNull();
                }
            }
        }
        return seen;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
