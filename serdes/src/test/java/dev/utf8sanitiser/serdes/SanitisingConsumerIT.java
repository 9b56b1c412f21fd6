package dev.utf8sanitiser.serdes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.testkit.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A plain Kafka consumer, configured by properties only, refuses ill-formed text on a real broker. */
class SanitisingConsumerIT {
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start();
        kafka.createTopics("text");
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void aConsumerStopsAtTheIllFormedRecordAndCanSeekPastIt() throws Exception {
        List<byte[]> values =
                List.of(utf8("first"), SanitisingSerdeTest.bytes(0x6E, 0x61, 0xEF, 0x76, 0x65), utf8("third"));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>("text", value)).get();
            }
        }
        Map<String, Object> config = kafka.consumerConfig("strict-reader");
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, SanitisingDeserializer.class.getName());
        config.put("sanitiser.serde.inner", "org.apache.kafka.common.serialization.Serdes$StringSerde");
        config.put("sanitiser.policy", "strict");

        List<String> read = new ArrayList<>();
        List<RecordDeserializationException> refused = new ArrayList<>();
        try (KafkaConsumer<byte[], String> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of("text"));
            Instant deadline = Instant.now().plusSeconds(60);
            while (read.size() < 2 && Instant.now().isBefore(deadline)) {
                try {
                    for (ConsumerRecord<byte[], String> record : consumer.poll(Duration.ofMillis(200))) {
                        read.add(record.value());
                    }
                } catch (RecordDeserializationException e) {
                    refused.add(e);
                    consumer.seek(
                            new TopicPartition(
                                    e.topicPartition().topic(),
                                    e.topicPartition().partition()),
                            e.offset() + 1);
                }
            }
        }

        assertThat(read).containsExactly("first", "third");
        assertThat(refused).hasSize(1);
        RecordDeserializationException e = refused.get(0);
        assertThat(e.offset()).isEqualTo(1);
        assertThat(e.getCause()).isInstanceOfSatisfying(IllFormedTextException.class, cause -> {
            assertThat(cause.rule()).isEqualTo("TRUNCATED");
            assertThat(cause.offset()).isEqualTo(2);
        });
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
