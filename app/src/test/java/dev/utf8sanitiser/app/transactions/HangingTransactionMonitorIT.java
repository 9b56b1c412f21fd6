package dev.utf8sanitiser.app.transactions;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.utf8sanitiser.app.LogLines;
import dev.utf8sanitiser.config.SanitiserConfig;
import dev.utf8sanitiser.testkit.EmbeddedKafka;
import dev.utf8sanitiser.testkit.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a loaded start-up looks like to the monitor: Kafka Streams writes its output with the input
 * records' timestamps, so a backlog read late makes a transaction begun a moment ago carry a
 * timestamp from long ago. A transaction that stays open longer than the transaction timeout but
 * ends, as one does while a broker fails over, is not hanging either.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
// Runs with no other test class beside it (the "timing" tag, app/pom.xml): it waits out the monitor's threshold.
@Tag("timing")
@ExtendWith(SharedKafka.class)
class HangingTransactionMonitorIT {
    private static final String IN = SharedKafka.unique("monitor-in");
    private static final String CLEAN = IN + ".clean";

    @Test
    void aTransactionWithOldRecordTimestampsThatEndsIsNeverReported(EmbeddedKafka kafka) throws Exception {
        kafka.createTopics(1, IN, CLEAN, IN + ".dlq");
        SanitiserConfig config = new SanitiserConfig(Map.of(
                "application.id",
                IN + "-app",
                "bootstrap.servers",
                kafka.bootstrapServers(),
                "sanitiser.input.topics",
                IN,
                // checks every second
                "producer.transaction.timeout.ms",
                "2000"));
        Properties admin = new Properties();
        admin.putAll(kafka.adminConfig());
        Map<String, Object> producerConfig = kafka.producerConfig();
        producerConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, IN + "-late");
        try (LogLines log = LogLines.of(HangingTransactionMonitor.class, Level.WARN);
                HangingTransactionMonitor monitor = HangingTransactionMonitor.start(config, admin);
                KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig)) {
            producer.initTransactions();
            producer.beginTransaction();
            long anHourAgo = System.currentTimeMillis() - 3_600_000;
            producer.send(new ProducerRecord<>(CLEAN, 0, anHourAgo, bytes("k"), bytes("late")))
                    .get();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
            int checks = 0;
            while (System.nanoTime() < until) {
                assertThat(monitor.hanging()).isEmpty();
                checks++;
                Thread.sleep(100);
            }
            producer.commitTransaction();
            Thread.sleep(1_500);
            assertThat(monitor.hanging()).isEmpty();
            assertThat(log.lines()).isEmpty();
            assertThat(checks).isGreaterThan(10);
        }
    }

    @Test
    void theThresholdIsReadFromTheBrokers(EmbeddedKafka kafka) throws Exception {
        try (Admin client = Admin.create(kafka.adminConfig())) {
            HangingThreshold threshold = HangingThreshold.read(client, Duration.ofSeconds(2));
            // The test broker runs Kafka's defaults: 2 + 10 + 2 x 9.
            assertThat(threshold)
                    .isEqualTo(
                            new HangingThreshold(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(9)));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }
}
