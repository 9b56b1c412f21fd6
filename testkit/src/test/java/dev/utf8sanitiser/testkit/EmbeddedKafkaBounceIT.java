package dev.utf8sanitiser.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A broker bounced (SIGTERM, then SIGKILL) comes back on the same port with its data. */
@Timeout(value = 240, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class EmbeddedKafkaBounceIT {

    @Test
    void aBouncedBrokerComesBackOnTheSamePortWithEveryCommittedRecord() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            String bootstrap = kafka.bootstrapServers();
            int port = Integer.parseInt(bootstrap.substring(bootstrap.indexOf(':') + 1));
            kafka.createTopics(2, "bounced");
            produce(kafka, "before");
            long firstPid = kafka.pid();

            kafka.stopBroker(false);
            assertThat(kafka.isRunning()).isFalse();
            assertThat(ProcessHandle.of(firstPid)).isEmpty();
            assertThat(isAcceptingConnections(port)).isFalse();
            assertThat(kafka.directory()).exists();

            kafka.restart();
            assertThat(kafka.bootstrapServers()).isEqualTo(bootstrap);
            assertThat(kafka.pid()).isNotEqualTo(firstPid);
            produce(kafka, "after-sigterm");

            long secondPid = kafka.pid();
            kafka.stopBroker(true);
            assertThat(ProcessHandle.of(secondPid)).isEmpty();
            kafka.restart();
            produce(kafka, "after-sigkill");
            assertThatThrownBy(kafka::restart).isInstanceOf(IllegalStateException.class);

            assertThat(readCommitted(kafka, 3)).containsExactlyInAnyOrder("before", "after-sigterm", "after-sigkill");
        }
    }

    private static void produce(EmbeddedKafka kafka, String value) throws Exception {
        Map<String, Object> config = kafka.producerConfig();
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "bounce-test");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("bounced", value.getBytes(UTF_8), value.getBytes(UTF_8)));
            producer.commitTransaction();
        }
    }

    private static List<String> readCommitted(EmbeddedKafka kafka, int expected) {
        Map<String, Object> config = kafka.consumerConfig("bounce-test");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of("bounced"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(new String(record.value(), UTF_8));
                }
            }
            // Anything more (a record written twice) would show up here.
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                values.add(new String(record.value(), UTF_8));
            }
        }
        return values;
    }

    private static boolean isAcceptingConnections(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
