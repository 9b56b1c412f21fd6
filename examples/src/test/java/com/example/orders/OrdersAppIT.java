package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.core.Utf8Error;
import dev.utf8sanitiser.core.Utf8Validator;
import dev.utf8sanitiser.serdes.IllFormedTextException;
import dev.utf8sanitiser.streams.StreamsSanitiser;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example application, a user's own Kafka Streams app that depends on the published artifacts
 * only, on a real broker under exactly-once: every record of both routes is accounted for, record
 * by record, read committed; the validator is the oracle for which records are dead letters and
 * for the rule and offset each carries.
 */
class OrdersAppIT {
    private static final HexFormat HEX = HexFormat.ofDelimiter("");
    /** Ill-formed values, one of each shape; every fifth record gets one. */
    private static final List<byte[]> ILL_FORMED = List.of(
            HEX.parseHex("6f726465722dc0af"), // non-shortest '/'
            HEX.parseHex("6f7264eda080"), // a surrogate (CESU-8)
            HEX.parseHex("6f7264e282"), // cut short
            HEX.parseHex("6f72ff64"), // not UTF-8 at all
            HEX.parseHex("636166e9")); // Latin-1 'café'

    private static final int RECORDS = 200;

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start();
        kafka.createTopics(2, OrdersApp.ORDERS, OrdersApp.PAYMENTS);
        kafka.createTopics(
                OrdersApp.ORDERS_CLEAN, OrdersApp.ORDERS_DLQ, OrdersApp.PAYMENTS_UPPER, OrdersApp.PAYMENTS_DLQ);
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void bothRoutesDeliverEveryRecordExactlyOnceToTheRightTopic(@TempDir Path state) throws Exception {
        Map<String, byte[]> orders = values("o-");
        Map<String, byte[]> payments = values("p-");
        produce(OrdersApp.ORDERS, orders);
        produce(OrdersApp.PAYMENTS, payments);

        Map<String, Object> user = new HashMap<>();
        user.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        user.put(StreamsConfig.APPLICATION_ID_CONFIG, "orders-app");
        user.put(
                StreamsConfig.STATE_DIR_CONFIG,
                Files.createDirectories(state.resolve("streams")).toString());
        user.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        user.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        user.put("sanitiser.policy", "strict");
        Map<String, Object> properties = OrdersApp.properties(user);

        long illFormed = orders.values().stream()
                .filter(v -> !Utf8Validator.isWellFormed(v))
                .count();
        assertThat(illFormed).isEqualTo(RECORDS / 5);
        Map<String, ConsumerRecord<byte[], byte[]>> ordersClean;
        Map<String, ConsumerRecord<byte[], byte[]>> ordersDead;
        Map<String, ConsumerRecord<byte[], byte[]>> paymentsUpper;
        Map<String, ConsumerRecord<byte[], byte[]>> paymentsDead;
        try (StreamsSanitiser sanitiser = StreamsSanitiser.create(properties);
                KafkaStreams streams =
                        new KafkaStreams(OrdersApp.topology(properties, sanitiser), new StreamsConfig(properties))) {
            streams.start();
            ordersClean = readCommitted(OrdersApp.ORDERS_CLEAN, RECORDS - illFormed);
            ordersDead = readCommitted(OrdersApp.ORDERS_DLQ, illFormed);
            paymentsUpper = readCommitted(OrdersApp.PAYMENTS_UPPER, RECORDS - illFormed);
            paymentsDead = readCommitted(OrdersApp.PAYMENTS_DLQ, illFormed);
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
        }

        for (Map.Entry<String, byte[]> order : orders.entrySet()) {
            byte[] value = order.getValue();
            if (Utf8Validator.isWellFormed(value)) {
                assertThat(ordersClean.get(order.getKey()).value()).isEqualTo(value);
                assertThat(ordersDead).doesNotContainKey(order.getKey());
            } else {
                ConsumerRecord<byte[], byte[]> dead = ordersDead.get(order.getKey());
                assertThat(dead.value()).isEqualTo(value);
                assertThat(ordersClean).doesNotContainKey(order.getKey());
                assertAnnotated(dead, value, OrdersApp.ORDERS);
            }
        }
        for (Map.Entry<String, byte[]> payment : payments.entrySet()) {
            byte[] value = payment.getValue();
            if (Utf8Validator.isWellFormed(value)) {
                String upper = new String(value, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
                assertThat(paymentsUpper.get(payment.getKey()).value())
                        .isEqualTo(upper.getBytes(StandardCharsets.UTF_8));
                assertThat(paymentsDead).doesNotContainKey(payment.getKey());
            } else {
                ConsumerRecord<byte[], byte[]> dead = paymentsDead.get(payment.getKey());
                assertThat(dead.value()).isEqualTo(value);
                assertThat(paymentsUpper).doesNotContainKey(payment.getKey());
                assertAnnotated(dead, value, OrdersApp.PAYMENTS);
                assertThat(header(dead, "__streams.errors.exception"))
                        .isEqualTo(IllFormedTextException.class.getName());
            }
        }
    }

    private static void assertAnnotated(ConsumerRecord<byte[], byte[]> dead, byte[] value, String topic) {
        Utf8Error first = Utf8Validator.firstError(value).orElseThrow();
        assertThat(header(dead, "__utf8.rule")).isEqualTo(first.rule().name());
        assertThat(header(dead, "__utf8.offset")).isEqualTo(Long.toString(first.offset()));
        assertThat(header(dead, "__utf8.errors"))
                .isEqualTo(Integer.toString(Utf8Validator.errors(value).size()));
        assertThat(header(dead, "__utf8.policy")).isEqualTo("strict");
        assertThat(header(dead, "__utf8.source.topic")).isEqualTo(topic);
        assertThat(header(dead, "__streams.errors.topic")).isEqualTo(topic);
        assertThat(header(dead, "__streams.errors.message"))
                .startsWith(first.rule().name());
        assertThat(header(dead, "origin")).isEqualTo("test"); // the record's own header, kept
    }

    /** {@code RECORDS} values by key, every fifth ill-formed. */
    private static Map<String, byte[]> values(String prefix) {
        Map<String, byte[]> values = new HashMap<>();
        for (int i = 0; i < RECORDS; i++) {
            byte[] value = i % 5 == 4
                    ? ILL_FORMED.get((i / 5) % ILL_FORMED.size())
                    : ("r\u00e9cord " + i + " \u2603").getBytes(StandardCharsets.UTF_8);
            values.put(prefix + i, value);
        }
        return values;
    }

    private static void produce(String topic, Map<String, byte[]> values) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (Map.Entry<String, byte[]> entry : values.entrySet()) {
                RecordHeaders headers = new RecordHeaders();
                headers.add("origin", "test".getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>(
                        topic, null, entry.getKey().getBytes(StandardCharsets.UTF_8), entry.getValue(), headers));
            }
            producer.flush();
        }
    }

    /**
     * Reads {@code topic} read committed until it holds {@code expected} records, and a little
     * longer, so a duplicate would be seen; fails on a key read twice.
     */
    private static Map<String, ConsumerRecord<byte[], byte[]>> readCommitted(String topic, long expected) {
        Map<String, Object> config = kafka.consumerConfig("check-" + topic);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, ConsumerRecord<byte[], byte[]>> read = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            Instant deadline = Instant.now().plusSeconds(90);
            Instant settled = null;
            while (Instant.now().isBefore(deadline)
                    && (settled == null || Instant.now().isBefore(settled))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    String key = new String(record.key(), StandardCharsets.UTF_8);
                    assertThat(read.put(key, record))
                            .as("%s read twice from %s", key, topic)
                            .isNull();
                }
                if (settled == null && read.size() >= expected) {
                    settled = Instant.now().plusSeconds(1);
                }
            }
        }
        assertThat(read).as(topic).hasSize((int) expected);
        return read;
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
