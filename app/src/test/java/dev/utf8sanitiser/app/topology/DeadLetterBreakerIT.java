package dev.utf8sanitiser.app.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.SanitiserApplication;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The dead-letter circuit breaker on a real broker, exactly-once: 100 good records then 1000 bad
 * with a 50% limit. The instance pauses with at most 100 dead letters committed, says so in
 * readiness and in the gauge; restarted with the breaker off, every record is downstream or in the
 * dead-letter topic exactly once.
 */
@ExtendWith(SharedKafka.class)
class DeadLetterBreakerIT {
    private static final String IN = SharedKafka.unique("breaker");
    private static final int GOOD = 100;
    private static final int BAD = 1000;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void broker(EmbeddedKafka shared) {
        kafka = shared;
    }

    @Test
    void aFloodOfBadRecordsTripsTheBreakerAndNothingIsLost() throws Exception {
        kafka.createTopics(IN);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (int i = 0; i < GOOD; i++) {
                producer.send(new ProducerRecord<>(IN, utf8("g" + i), utf8("good " + i)));
            }
            for (int i = 0; i < BAD; i++) {
                producer.send(new ProducerRecord<>(IN, utf8("b" + i), new byte[] {'b', (byte) 0xFF}));
            }
            producer.flush();
        }
        Map<String, ConsumerRecord<byte[], byte[]>> seen = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> verifier = verifier()) {
            try (SanitiserApplication app = SanitiserApplication.start(config("0.5"), false)) {
                int port = app.healthPort();
                HttpResponse<String> ready = awaitNotReadyWithReason(port);
                assertThat(ready.statusCode()).isEqualTo(503);
                assertThat(ready.body())
                        .contains("dead-letter circuit breaker open for " + IN)
                        .contains("sanitiser.circuit.breaker.dead.letter.share=0.5")
                        .contains("restart to resume");
                assertThat(get(port, "/metrics").body())
                        .contains("utf8_sanitiser_circuit_breaker_open{topic=\"" + IN + "\"} 1.0")
                        .contains("utf8_sanitiser_ready 0.0");
                assertThat(get(port, "/health/live").statusCode()).isEqualTo(200);
                assertThat(app.failed()).isFalse();

                // Paused: what is committed now stays all there is while it runs.
                drain(verifier, seen, Duration.ofSeconds(5));
                long deadLetters = count(seen, IN + ".dlq");
                long clean = count(seen, IN + ".clean");
                assertThat(deadLetters)
                        .as("at most half of the records seen: the 100 good, and as many bad")
                        .isLessThanOrEqualTo(GOOD);
                assertThat(clean).isLessThanOrEqualTo(GOOD);
                assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
                System.out.printf("breaker tripped: %d clean, %d dead letters committed%n", clean, deadLetters);
            }
            // Restarted with the breaker off: every record, once.
            try (SanitiserApplication app = SanitiserApplication.start(config("1"), false)) {
                long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                while (seen.size() < GOOD + BAD && System.nanoTime() < deadline) {
                    drain(verifier, seen, Duration.ofSeconds(1));
                }
                drain(verifier, seen, Duration.ofSeconds(2)); // and no more after
                assertThat(app.failed()).isFalse();
            }
        }
        assertThat(count(seen, IN + ".clean")).isEqualTo(GOOD);
        assertThat(count(seen, IN + ".dlq")).isEqualTo(BAD);
        for (int i = 0; i < GOOD; i++) {
            assertThat(seen).containsKey(IN + ".clean/g" + i);
        }
        for (int i = 0; i < BAD; i++) {
            assertThat(seen.get(IN + ".dlq/b" + i).value()).isEqualTo(new byte[] {'b', (byte) 0xFF});
        }
    }

    private static long count(Map<String, ConsumerRecord<byte[], byte[]>> seen, String topic) {
        return seen.values().stream().filter(r -> r.topic().equals(topic)).count();
    }

    private static KafkaConsumer<byte[], byte[]> verifier() {
        Map<String, Object> config = kafka.consumerConfig(IN + "-verifier");
        config.put("isolation.level", "read_committed");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config);
        consumer.subscribe(List.of(IN + ".clean", IN + ".dlq"));
        return consumer;
    }

    /** Polls for {@code time}, each record once by topic and key: a second copy fails the test. */
    private static void drain(
            KafkaConsumer<byte[], byte[]> consumer, Map<String, ConsumerRecord<byte[], byte[]>> seen, Duration time) {
        long end = System.nanoTime() + time.toNanos();
        while (System.nanoTime() < end) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                String id = r.topic() + "/" + new String(r.key(), StandardCharsets.UTF_8);
                assertThat(seen.put(id, r)).as("a duplicate: %s", id).isNull();
            }
        }
    }

    private static HttpResponse<String> awaitNotReadyWithReason(int port) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        HttpResponse<String> response = get(port, "/health/ready");
        while (!response.body().contains("circuit breaker") && System.nanoTime() < deadline) {
            Thread.sleep(200);
            response = get(port, "/health/ready");
        }
        return response;
    }

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static SanitiserConfig config(String share) {
        Map<String, Object> props = new HashMap<>();
        props.put("sanitiser.input.topics", IN);
        props.put("sanitiser.http.port", "0");
        props.put("sanitiser.circuit.breaker.dead.letter.share", share);
        props.put("sanitiser.circuit.breaker.window.records", "1000");
        props.put("sanitiser.circuit.breaker.min.records", "100");
        props.put("application.id", IN + "-app");
        props.put("bootstrap.servers", kafka.bootstrapServers());
        props.put("replication.factor", "1");
        props.put("commit.interval.ms", "100");
        props.put("consumer.auto.offset.reset", "earliest");
        return new SanitiserConfig(props);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
