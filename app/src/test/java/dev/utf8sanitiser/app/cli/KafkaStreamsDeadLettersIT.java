package dev.utf8sanitiser.app.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.serdes.record.PlainHeader;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kafka Streams application with its own dead-letter queue ({@code
 * errors.dead.letter.queue.topic.name}) and a deserialization handler that continues: the record its
 * Integer deserializer fails on goes to the dead-letter topic with Kafka Streams' headers, which the
 * dlq commands read and replay.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@ExtendWith(SharedKafka.class)
class KafkaStreamsDeadLettersIT {
    @TempDir
    Path dir;

    @Test
    void aKafkaStreamsDeadLetterIsCountedInspectedAndReplayedOnce(EmbeddedKafka kafka) throws Exception {
        String in = SharedKafka.unique("kstreams-in");
        String out = in + ".out";
        String dlq = in + ".streams-dlq";
        kafka.createTopics(2, in);
        kafka.createTopics(1, out, dlq);
        List<Header> own = List.<Header>of(PlainHeader.of("trace-id", "s1"));
        byte[] key = "k1".getBytes(UTF_8);
        byte[] bad = "five!".getBytes(UTF_8); // not the 4 bytes of an Integer
        RecordMetadata badAt;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.producerConfig())) {
            producer.send(new ProducerRecord<>(in, 1, key, new byte[] {0, 0, 0, 7}))
                    .get();
            badAt = producer.send(new ProducerRecord<>(in, 1, key, bad, own)).get();
        }

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(in, Consumed.with(Serdes.ByteArray(), Serdes.Integer()))
                .to(out, Produced.with(Serdes.ByteArray(), Serdes.Integer()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, in + "-app");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, dlq);
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("state").toString());
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        List<ConsumerRecord<byte[], byte[]>> dead;
        try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
            streams.start();
            dead = ForeignDeadLetters.await(kafka, dlq, 1, Duration.ofSeconds(60));
            streams.close(Duration.ofSeconds(20));
        }
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).value()).isEqualTo(bad);

        ForeignDeadLetters.check(
                kafka,
                dir,
                dlq,
                1,
                dead.get(0).offset(),
                new ForeignDeadLetters.Expected(
                        "kafka-streams",
                        SerializationException.class.getName(),
                        in,
                        OptionalInt.of(1),
                        badAt.offset(),
                        key,
                        bad,
                        own));
    }
}
