package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.util.backoff.FixedBackOff;

/**
 * A Spring Kafka listener container whose listener throws on one record, with a DefaultErrorHandler
 * that hands it, without retries, to a DeadLetterPublishingRecoverer: the dead letter it publishes
 * (binary original partition and offset, exception headers) is read and replayed by the dlq
 * commands.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(SharedKafka.class)
class SpringKafkaDeadLettersIT {
    @TempDir
    Path dir;

    @Test
    void aSpringKafkaDeadLetterIsCountedInspectedAndReplayedOnce(EmbeddedKafka kafka) throws Exception {
        String in = SharedKafka.unique("spring-in");
        String dlt = in + ".DLT";
        kafka.createTopics(3, in);
        kafka.createTopics(1, dlt);
        List<Header> own = List.<Header>of(PlainHeader.of("trace-id", "p1"));
        byte[] key = "k2".getBytes(UTF_8);
        byte[] poison = {'p', 'o', 'i', 's', 'o', 'n', (byte) 0xFF};
        RecordMetadata poisonAt;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            producer.send(new ProducerRecord<>(in, 2, key, "fine".getBytes(UTF_8)))
                    .get();
            poisonAt =
                    producer.send(new ProducerRecord<>(in, 2, key, poison, own)).get();
        }

        Map<String, Object> producerProps = kafka.producerConfig();
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        DefaultKafkaProducerFactory<byte[], byte[]> producers = new DefaultKafkaProducerFactory<>(producerProps);
        KafkaTemplate<byte[], byte[]> template = new KafkaTemplate<>(producers);
        DeadLetterPublishingRecoverer recoverer =
                new DeadLetterPublishingRecoverer(template, (record, e) -> new TopicPartition(dlt, 0));
        Map<String, Object> consumerProps = kafka.consumerConfig(in + "-group");
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        ContainerProperties containerProps = new ContainerProperties(in);
        containerProps.setMessageListener((MessageListener<byte[], byte[]>) record -> {
            if (Arrays.equals(record.value(), poison)) {
                throw new IllegalStateException("cannot process order");
            }
        });
        KafkaMessageListenerContainer<byte[], byte[]> container =
                new KafkaMessageListenerContainer<>(new DefaultKafkaConsumerFactory<>(consumerProps), containerProps);
        container.setCommonErrorHandler(new DefaultErrorHandler(recoverer, new FixedBackOff(0L, 0L)));
        List<ConsumerRecord<byte[], byte[]>> dead;
        container.start();
        try {
            dead = ForeignDeadLetters.await(kafka, dlt, 1, Duration.ofSeconds(60));
        } finally {
            container.stop();
            producers.destroy();
        }
        assertThat(dead).hasSize(1);
        ConsumerRecord<byte[], byte[]> letter = dead.get(0);
        // What Spring wrote, read with its own encodings: a 4-byte partition, an 8-byte offset.
        assertThat(ByteBuffer.wrap(letter.headers()
                                .lastHeader(KafkaHeaders.DLT_ORIGINAL_PARTITION)
                                .value())
                        .getInt())
                .isEqualTo(2);
        assertThat(letter.headers().lastHeader(KafkaHeaders.DLT_ORIGINAL_OFFSET).value())
                .hasSize(8);
        String fqcn = new String(
                letter.headers().lastHeader(KafkaHeaders.DLT_EXCEPTION_FQCN).value(), UTF_8);
        assertThat(fqcn).startsWith("org.springframework.kafka.listener.");

        ForeignDeadLetters.check(
                kafka,
                dir,
                dlt,
                1,
                letter.offset(),
                new ForeignDeadLetters.Expected(
                        "spring-kafka", fqcn, in, OptionalInt.of(2), poisonAt.offset(), key, poison, own));
    }
}
