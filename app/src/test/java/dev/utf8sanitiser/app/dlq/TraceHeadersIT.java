package dev.utf8sanitiser.app.dlq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.serdes.record.DeadLetterHeaders;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On a real broker, exactly-once: a producer's W3C trace context arrives byte-exact on the dead-letter
 * record, on the placeholder of one too large for its dead-letter topic, and on the record {@code dlq
 * replay} sends back.
 */
@ExtendWith(SharedKafka.class)
class TraceHeadersIT {
    private static final String IN = SharedKafka.unique("trace-in");
    private static final String BACK = SharedKafka.unique("trace-back");
    private static final byte[] TRACEPARENT =
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRACESTATE = {'r', 'o', 'j', 'o', '=', '0', '0', 'f', (byte) 0xC3, (byte) 0xA9};
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void broker(EmbeddedKafka shared) {
        kafka = shared;
    }

    @Test
    void theTraceContextArrivesOnTheDeadLetterThePlaceholderAndTheReplayedRecord() throws Exception {
        kafka.createTopics(IN, BACK);
        try (Admin admin = Admin.create(kafka.adminConfig())) {
            admin.createTopics(List.of(
                            new NewTopic(IN + ".dlq", 1, (short) 1).configs(Map.of("max.message.bytes", "16384"))))
                    .all()
                    .get();
        }
        byte[] small = {'c', 'a', 'f', (byte) 0xE9};
        byte[] large = new byte[40_000];
        Arrays.fill(large, (byte) 'x');
        large[3] = (byte) 0xFF;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            producer.send(record("small", small)).get();
            producer.send(record("large", large)).get();
        }

        List<ConsumerRecord<byte[], byte[]>> dead;
        try (SanitiserApplication app = SanitiserApplication.start(config(), false)) {
            dead = consume(IN + ".dlq", 2);
            assertThat(app.failed()).isFalse();
        }
        ConsumerRecord<byte[], byte[]> full = dead.get(0);
        assertThat(full.value()).isEqualTo(small);
        assertThat(DeadLetterHeaders.original(full.headers()))
                .extracting(Header::key)
                .containsExactly("traceparent", "other", "tracestate");
        assertTrace(full.headers());

        ConsumerRecord<byte[], byte[]> placeholder = dead.get(1);
        assertThat(placeholder.value()).isNull();
        assertThat(DeadLetterHeaders.read(placeholder.headers()).orElseThrow().placeholder())
                .isTrue();
        assertThat(DeadLetterHeaders.original(placeholder.headers()))
                .extracting(Header::key)
                .containsExactly("traceparent", "tracestate");
        assertTrace(placeholder.headers());

        Properties client = new Properties();
        client.putAll(kafka.producerConfig());
        try (Admin admin = Admin.create(kafka.adminConfig());
                ReplaySender sender = ReplaySender.open(client, admin, IN + ".dlq")) {
            Replay replay = new Replay(BACK, Optional.empty(), Map.of());
            sender.send((Replay.Send) replay.of(DeadLetter.of(full)));
            assertThat(replay.of(DeadLetter.of(placeholder))).isInstanceOf(Replay.Skip.class);
            assertThat(sender.finish()).isEqualTo(1);
        }
        ConsumerRecord<byte[], byte[]> replayed = consume(BACK, 1).get(0);
        assertThat(replayed.value()).isEqualTo(small);
        assertTrace(replayed.headers());
        assertThat(replayed.headers().lastHeader("other").value()).isEqualTo(new byte[] {0, 1});
    }

    private static void assertTrace(Iterable<Header> headers) {
        List<Header> trace = new ArrayList<>();
        headers.forEach(h -> {
            if (h.key().equals("traceparent") || h.key().equals("tracestate")) {
                trace.add(h);
            }
        });
        assertThat(trace).extracting(Header::value).containsExactly(TRACEPARENT, TRACESTATE);
    }

    private static ProducerRecord<byte[], byte[]> record(String key, byte[] value) {
        var headers = new RecordHeaders()
                .add("traceparent", TRACEPARENT)
                .add("other", new byte[] {0, 1})
                .add("tracestate", TRACESTATE);
        return new ProducerRecord<>(IN, null, key.getBytes(StandardCharsets.UTF_8), value, headers);
    }

    private static SanitiserConfig config() {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", IN);
        props.put("sanitiser.http.port", "-1");
        props.put("application.id", IN + "-app");
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("replication.factor", "1");
        props.put("commit.interval.ms", "200");
        props.put("consumer.auto.offset.reset", "earliest");
        return new SanitiserConfig(props);
    }

    /** The first {@code expected} committed records of {@code topic}, in order. */
    private static List<ConsumerRecord<byte[], byte[]>> consume(String topic, int expected) {
        Map<String, Object> config = kafka.consumerConfig(topic + "-verifier");
        config.put("isolation.level", "read_committed");
        List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (seen.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(seen::add);
            }
        }
        assertThat(seen).as("records in %s", topic).hasSize(expected);
        return seen;
    }
}
